/**
 * imageSize: PNG, GIF, JPEG (with APP segments, SOF2) and WebP (VP8, VP8L, VP8X) headers as
 * before the `image-size` library read them, the formats it added (AVIF, HEIC, SVG, TIFF, BMP,
 * ICO), and undefined for anything truncated, unknown or only weakly signed.
 */
import { describe, expect, it } from "vitest";
import { imageSize } from "../../src/core/image-size.js";
import { pngHeader } from "../media/fixtures.js";

const bytes = (...parts: (number[] | string)[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? [...p].map((c) => c.charCodeAt(0)) : p)));
const le16 = (n: number) => [n & 0xff, n >> 8];
const be16 = (n: number) => [n >> 8, n & 0xff];
const le32 = (n: number) => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, n >>> 24];

const gif = bytes("GIF89a", le16(320), le16(200), [0, 0, 0]);
const jpeg = (sof = 0xc0, fill: number[] = []) =>
  bytes([0xff, 0xd8], [0xff, 0xe0], be16(16), "JFIF\0", new Array(9).fill(0), fill, [0xff, sof], be16(17), [8], be16(600), be16(800), [3], new Array(9).fill(0));
const riff = (chunk: string, payload: number[]) => bytes("RIFF", le32(4 + 8 + payload.length), "WEBP", chunk, le32(payload.length), payload);
const vp8 = riff("VP8 ", [0, 0, 0, 0x9d, 0x01, 0x2a, ...le16(1024), ...le16(768), 0, 0]);
const vp8l = riff("VP8L", [0x2f, ...le32((99 & 0x3fff) | ((49 & 0x3fff) << 14)), 0, 0, 0, 0, 0]);
const be32 = (n: number) => [n >>> 24, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];
const box = (type: string, ...payload: (number[] | string)[]) => {
  const body = bytes(...payload);
  return bytes(be32(8 + body.length), type, [...body]);
};
/** An ISO-BMFF still image (AVIF/HEIC): ftyp with the brand, then meta › iprp › ipco › ispe. */
const heif = (brand: string, width: number, height: number) => {
  const ispe = box("ispe", [0, 0, 0, 0], be32(width), be32(height));
  const meta = box("meta", [0, 0, 0, 0], [...box("iprp", [...box("ipco", [...ispe])])]);
  return bytes([...box("ftyp", brand, [0, 0, 0, 0], "mif1")], [...meta]);
};
const svg = (root: string) => new TextEncoder().encode(`<?xml version="1.0"?>\n${root}<rect/></svg>`);
const tiff = bytes("II", le16(42), le32(8), le16(2), le16(256), le16(3), le32(1), le16(640), le16(0), le16(257), le16(3), le32(1), le16(480), le16(0), le32(0));
const bmp = (height: number) => bytes("BM", le32(54), le32(0), le32(54), le32(40), le32(300), le32(height >>> 0), le16(1), le16(24), new Array(24).fill(0));
const icoEntry = (size: number) => [size & 0xff, size & 0xff, 0, 0, ...le16(1), ...le16(32), ...le32(40), ...le32(38)];
const ico = bytes(le16(0), le16(1), le16(2), icoEntry(16), icoEntry(256));
const vp8x = riff("VP8X", [0, 0, 0, 0, 1999 & 0xff, (1999 >> 8) & 0xff, 0, 999 & 0xff, (999 >> 8) & 0xff, 0, 0, 0]);

describe("imageSize", () => {
  it.each([
    ["PNG", pngHeader(640, 480), { width: 640, height: 480, format: "png" }],
    ["GIF", gif, { width: 320, height: 200, format: "gif" }],
    ["baseline JPEG", jpeg(), { width: 800, height: 600, format: "jpeg" }],
    ["progressive JPEG", jpeg(0xc2), { width: 800, height: 600, format: "jpeg" }],
    ["WebP lossy", vp8, { width: 1024, height: 768, format: "webp" }],
    ["WebP lossless", vp8l, { width: 100, height: 50, format: "webp" }],
    ["WebP extended", vp8x, { width: 2000, height: 1000, format: "webp" }],
    ["AVIF", heif("avif", 1920, 1080), { width: 1920, height: 1080, format: "avif" }],
    ["HEIC", heif("heic", 4032, 3024), { width: 4032, height: 3024, format: "heic" }],
    ["SVG with width and height", svg(`<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80">`), { width: 120, height: 80, format: "svg" }],
    ["SVG with a viewBox only", svg(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 150">`), { width: 300, height: 150, format: "svg" }],
    ["TIFF", tiff, { width: 640, height: 480, format: "tiff" }],
    ["BMP", bmp(200), { width: 300, height: 200, format: "bmp" }],
    ["top-down BMP", bmp(-200), { width: 300, height: 200, format: "bmp" }],
    ["ICO (its largest image)", ico, { width: 256, height: 256, format: "ico" }],
  ])("reads %s", (_name, input, expected) => {
    expect(imageSize(input)).toEqual(expected);
  });

  it.each([
    ["empty", new Uint8Array(0)],
    ["text", new TextEncoder().encode("hello world, not an image at all")],
    ["truncated PNG", pngHeader(1, 1).subarray(0, 20)],
    ["zero-sized PNG", pngHeader(0, 10)],
    ["JPEG without a frame", bytes([0xff, 0xd8], [0xff, 0xda], be16(2))],
    ["truncated JPEG", jpeg().subarray(0, 24)],
    ["JPEG with a bad marker", bytes([0xff, 0xd8], [0x00, 0x00, 0x00, 0x00])],
    ["RIFF that is not WebP", bytes("RIFF", le32(30), "WAVE", new Array(30).fill(0))],
    ["JPEG with fill bytes before its frame (not skipped by the library)", jpeg(0xc0, [0xff, 0xff])],
    ["text that starts like a BMP", new TextEncoder().encode("BMW service manual, chapter one: the engine")],
    ["binary that looks like TGA", bytes([0, 0, 2, 0, 0, 0], new Array(6).fill(0), le16(640), le16(480), new Array(20).fill(7))],
    ["SVG without a size", svg(`<svg xmlns="http://www.w3.org/2000/svg">`)],
    ["truncated AVIF", heif("avif", 10, 10).subarray(0, 40)],
  ])("gives undefined for %s", (_name, input) => {
    expect(imageSize(input)).toBeUndefined();
  });

  it("reads from a view into a larger buffer", () => {
    const padded = new Uint8Array(100);
    padded.set(gif, 50);
    expect(imageSize(padded.subarray(50, 50 + gif.length))).toMatchObject({ width: 320, height: 200 });
  });
});
