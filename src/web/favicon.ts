/**
 * Cofre's favicon (issue 29: no 404 on `/favicon.ico`): a 32x32 ICO holding one PNG, drawn here
 * (a teal disc with a white ring: a coin) so no binary file needs bundling. Built once, on first use.
 */
import { deflateSync } from "node:zlib";

const SIZE = 32;

/** CRC-32 (PNG chunk checksum, polynomial 0xEDB88320). */
function crc32(bytes: Uint8Array): number {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

function png(): Buffer {
  const rows: number[] = [];
  const c = (SIZE - 1) / 2;
  for (let y = 0; y < SIZE; y++) {
    rows.push(0);
    for (let x = 0; x < SIZE; x++) {
      const d = Math.hypot(x - c, y - c);
      const inside = d <= 15.5;
      const ring = d >= 8 && d <= 10.5;
      if (!inside) rows.push(0, 0, 0, 0);
      else if (ring) rows.push(255, 255, 255, 255);
      else rows.push(0x0b, 0x6e, 0x6e, 255);
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(SIZE, 0);
  ihdr.writeUInt32BE(SIZE, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(Buffer.from(rows))),
    chunk("IEND", new Uint8Array()),
  ]);
}

let ico: Buffer | undefined;

/** The bytes of `/favicon.ico` (`image/x-icon`). */
export function faviconIco(): Buffer {
  if (ico) return ico;
  const image = png();
  const head = Buffer.alloc(22);
  head.writeUInt16LE(0, 0);
  head.writeUInt16LE(1, 2); // icon
  head.writeUInt16LE(1, 4); // one image
  head.writeUInt8(SIZE, 6);
  head.writeUInt8(SIZE, 7);
  head.writeUInt16LE(1, 10); // planes
  head.writeUInt16LE(32, 12); // bits per pixel
  head.writeUInt32LE(image.length, 14);
  head.writeUInt32LE(22, 18);
  return (ico = Buffer.concat([head, image]));
}
