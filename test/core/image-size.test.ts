/**
 * imageSize: PNG, GIF, JPEG (with APP segments, fill bytes, SOF2) and WebP (VP8, VP8L, VP8X)
 * headers, and undefined for anything truncated or unknown.
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
const jpeg = (sof = 0xc0) =>
  bytes([0xff, 0xd8], [0xff, 0xe0], be16(16), "JFIF\0", new Array(9).fill(0), [0xff, 0xff], [0xff, sof], be16(17), [8], be16(600), be16(800), [3], new Array(9).fill(0));
const riff = (chunk: string, payload: number[]) => bytes("RIFF", le32(4 + 8 + payload.length), "WEBP", chunk, le32(payload.length), payload);
const vp8 = riff("VP8 ", [0, 0, 0, 0x9d, 0x01, 0x2a, ...le16(1024), ...le16(768), 0, 0]);
const vp8l = riff("VP8L", [0x2f, ...le32((99 & 0x3fff) | ((49 & 0x3fff) << 14)), 0, 0, 0, 0, 0]);
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
  ])("gives undefined for %s", (_name, input) => {
    expect(imageSize(input)).toBeUndefined();
  });

  it("reads from a view into a larger buffer", () => {
    const padded = new Uint8Array(100);
    padded.set(gif, 50);
    expect(imageSize(padded.subarray(50, 50 + gif.length))).toMatchObject({ width: 320, height: 200 });
  });
});
