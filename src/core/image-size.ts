/**
 * Pixel dimensions of an uploaded image, read from its header without decoding (the `image-size`
 * package, buffer API only: no file access). Formats a browser or an editor commonly shows are
 * recognized; anything else, or a truncated or malformed header, gives undefined. Dimensions are
 * the stored ones (EXIF orientation is not applied). JPEG sizes come from baseline, extended and
 * progressive frames (SOF0–2) reached without fill bytes between segments, as the library reads
 * them; other JPEGs have no size. Pure.
 *
 * @example
 * imageSize(pngBytes); // { width: 640, height: 480, format: "png" }
 * imageSize(new Uint8Array([1, 2, 3])); // undefined
 */
import { imageSize as readHeader } from "image-size";

/**
 * The formats we report. Left out on purpose: TGA, PNM, DDS, KTX and raw JPEG 2000 codestreams,
 * whose signatures are weak or rare enough that an ordinary binary upload could be mistaken for one.
 */
const FORMATS = ["png", "gif", "jpeg", "webp", "avif", "heic", "heif", "svg", "tiff", "bmp", "ico", "cur", "icns", "jxl", "jp2", "psd"] as const;

/** The library's names where ours differ. */
const LIBRARY_NAMES: Record<string, ImageFormat> = { jpg: "jpeg", bigtiff: "tiff" };

export type ImageFormat = (typeof FORMATS)[number];

export interface ImageSize {
  width: number;
  height: number;
  format: ImageFormat;
}

/** Dimensions fit the INTEGER columns they are stored in (PostgreSQL's is 32-bit signed). */
const MAX_DIMENSION = 2 ** 31 - 1;
const isDimension = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) > 0 && (n as number) <= MAX_DIMENSION;

/** BMP's only signature is "BM"; a known DIB header size tells a bitmap from text that starts so. */
const BMP_HEADER_SIZES = new Set([12, 40, 52, 56, 64, 108, 124]);
const plausibleBmp = (bytes: Uint8Array) =>
  bytes.length >= 26 && BMP_HEADER_SIZES.has(new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(14, true));

/** Reads the dimensions of an image; undefined when the bytes are not one we recognize. */
export function imageSize(bytes: Uint8Array): ImageSize | undefined {
  let size: { width?: number; height?: number; type?: string };
  try {
    // The library reads through DataViews on the whole ArrayBuffer, so a view into a larger buffer
    // (pooled Buffers) could be read past its end: hand it bytes that own their buffer.
    const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
    size = readHeader(own);
  } catch {
    return undefined; // unknown format, or a header that is cut short or malformed
  }
  const format = (LIBRARY_NAMES[size.type ?? ""] ?? size.type) as ImageFormat;
  if (!FORMATS.includes(format) || (format === "bmp" && !plausibleBmp(bytes))) return undefined;
  return isDimension(size.width) && isDimension(size.height) ? { width: size.width, height: size.height, format } : undefined;
}
