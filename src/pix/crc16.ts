/**
 * CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no xorout), as the BR Code
 * manual requires for field 63, over the UTF-8 bytes of `input`. Returns 4 uppercase hex characters.
 * Table-driven (one lookup per byte; computed on every charge creation).
 */
const TABLE = (() => {
  const t = new Uint16Array(256);
  for (let b = 0; b < 256; b++) {
    let crc = b << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    t[b] = crc;
  }
  return t;
})();

export function crc16CcittFalse(input: string): string {
  let crc = 0xffff;
  // BR Codes are ASCII: read char codes directly; fall back to UTF-8 bytes otherwise.
  const ascii = /^[\x00-\x7f]*$/.test(input);
  const bytes = ascii ? null : new TextEncoder().encode(input);
  const n = ascii ? input.length : bytes!.length;
  for (let k = 0; k < n; k++) {
    const byte = ascii ? input.charCodeAt(k) : bytes![k]!;
    crc = ((crc << 8) & 0xffff) ^ TABLE[((crc >> 8) ^ byte) & 0xff]!;
  }
  return crc.toString(16).toUpperCase().padStart(4, "0");
}
