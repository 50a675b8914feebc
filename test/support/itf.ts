/**
 * A small Interleaved 2 of 5 reader for tests (an oracle independent of bwip-js): reads the bars
 * across the middle row of an RGBA image and decodes them (start N-N-N-N, digit pairs with bars
 * for the first digit and spaces for the second, 2 wide of 5 each, stop W-N-N).
 */
const PATTERNS: Record<string, string> = {
  NNWWN: "0",
  WNNNW: "1",
  NWNNW: "2",
  WWNNN: "3",
  NNWNW: "4",
  WNWNN: "5",
  NWWNN: "6",
  NNNWW: "7",
  WNNWN: "8",
  NWNWN: "9",
};

/** Digits encoded by the ITF barcode drawn in `rgba` (width x height); throws when it does not decode. */
export function readItf(rgba: Uint8ClampedArray, width: number, height: number): string {
  const y = Math.floor(height / 2);
  const dark = (x: number) => {
    const i = (y * width + x) * 4;
    return (rgba[i]! + rgba[i + 1]! + rgba[i + 2]!) / 3 < 128;
  };
  const runs: { dark: boolean; len: number }[] = [];
  for (let x = 0; x < width; x++) {
    const d = dark(x);
    const last = runs[runs.length - 1];
    if (last && last.dark === d) last.len++;
    else runs.push({ dark: d, len: 1 });
  }
  while (runs.length && !runs[0]!.dark) runs.shift();
  while (runs.length && !runs[runs.length - 1]!.dark) runs.pop();
  const narrow = Math.min(...runs.slice(0, 4).map((r) => r.len));
  const kind = runs.map((r) => (r.len > narrow * 2 ? "W" : "N")).join("");
  if (!kind.startsWith("NNNN") || !kind.endsWith("WNN")) throw new Error(`no ITF start/stop pattern: ${kind}`);
  const body = kind.slice(4, -3);
  if (body.length % 10 !== 0) throw new Error(`ITF body of ${body.length} elements`);
  let digits = "";
  for (let i = 0; i < body.length; i += 10) {
    const chunk = body.slice(i, i + 10);
    const bars = [0, 2, 4, 6, 8].map((k) => chunk[k]).join("");
    const spaces = [1, 3, 5, 7, 9].map((k) => chunk[k]).join("");
    if (!PATTERNS[bars] || !PATTERNS[spaces]) throw new Error(`bad ITF pair ${bars}/${spaces}`);
    digits += PATTERNS[bars] + PATTERNS[spaces];
  }
  return digits;
}
