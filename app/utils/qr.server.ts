import qrcode from "qrcode-generator";

/**
 * A QR code as one SVG path, drawn on the server so that it shows without JavaScript: `size`
 * modules a side (with a quiet zone of 4 modules), and `d`, one square per dark module. Error
 * correction M (15 %), the smallest version that holds the text.
 */
export function qrSvgPath(text: string): { size: number; d: string } {
  const qr = qrcode(0, "M");
  qr.addData(text, "Byte");
  qr.make();
  const count = qr.getModuleCount();
  const quiet = 4;
  const parts: string[] = [];
  for (let row = 0; row < count; row++)
    for (let col = 0; col < count; col++)
      if (qr.isDark(row, col)) parts.push(`M${col + quiet} ${row + quiet}h1v1h-1z`);
  return { size: count + 2 * quiet, d: parts.join("") };
}
