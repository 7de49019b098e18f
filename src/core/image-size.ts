/**
 * Pixel dimensions of PNG, GIF, JPEG and WebP images, read from their headers without decoding
 * and without a dependency. Anything else, or a truncated or malformed header, gives undefined.
 * JPEG dimensions are the stored ones (EXIF orientation is not applied). Pure.
 *
 * @example
 * imageSize(pngBytes); // { width: 640, height: 480, format: "png" }
 * imageSize(new Uint8Array([1, 2, 3])); // undefined
 */

export interface ImageSize {
  width: number;
  height: number;
  format: "png" | "gif" | "jpeg" | "webp";
}

/** Reads the dimensions of a PNG, GIF, JPEG or WebP image. */
export function imageSize(bytes: Uint8Array): ImageSize | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const size = png(bytes, view) ?? gif(bytes, view) ?? jpeg(bytes, view) ?? webp(bytes, view);
  return size && size.width > 0 && size.height > 0 ? size : undefined;
}

const ascii = (bytes: Uint8Array, at: number, text: string) =>
  bytes.length >= at + text.length && [...text].every((c, i) => bytes[at + i] === c.charCodeAt(0));

function png(bytes: Uint8Array, view: DataView): ImageSize | undefined {
  if (bytes.length < 24 || !ascii(bytes, 1, "PNG\r\n\u001a\n") || bytes[0] !== 0x89 || !ascii(bytes, 12, "IHDR")) return undefined;
  return { width: view.getUint32(16), height: view.getUint32(20), format: "png" };
}

function gif(bytes: Uint8Array, view: DataView): ImageSize | undefined {
  if (bytes.length < 10 || !(ascii(bytes, 0, "GIF87a") || ascii(bytes, 0, "GIF89a"))) return undefined;
  return { width: view.getUint16(6, true), height: view.getUint16(8, true), format: "gif" };
}

/** Start-of-frame markers carry the dimensions; C4 (DHT), C8 (JPG) and CC (DAC) are not frames. */
const isStartOfFrame = (m: number) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;

function jpeg(bytes: Uint8Array, view: DataView): ImageSize | undefined {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return undefined; // end of image, start of scan
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2; // markers without a length
      continue;
    }
    const length = view.getUint16(at + 2);
    if (length < 2) return undefined;
    if (isStartOfFrame(marker)) {
      if (at + 9 > bytes.length) return undefined;
      return { width: view.getUint16(at + 7), height: view.getUint16(at + 5), format: "jpeg" };
    }
    at += 2 + length;
  }
  return undefined;
}

function webp(bytes: Uint8Array, view: DataView): ImageSize | undefined {
  if (bytes.length < 30 || !ascii(bytes, 0, "RIFF") || !ascii(bytes, 8, "WEBP")) return undefined;
  if (ascii(bytes, 12, "VP8 ")) {
    if (bytes[23] !== 0x9d || bytes[24] !== 0x01 || bytes[25] !== 0x2a) return undefined;
    return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff, format: "webp" };
  }
  if (ascii(bytes, 12, "VP8L")) {
    if (bytes[20] !== 0x2f) return undefined;
    const bits = view.getUint32(21, true);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1, format: "webp" };
  }
  if (ascii(bytes, 12, "VP8X")) {
    const u24 = (at: number) => bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16);
    return { width: u24(24) + 1, height: u24(27) + 1, format: "webp" };
  }
  return undefined;
}
