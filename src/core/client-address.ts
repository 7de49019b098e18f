/**
 * The client address that sign-in and form-submit throttles count by. Pure: the HTTP layer picks
 * the raw value (socket peer, or the proxy's X-Forwarded-For entry) and this turns it into a key.
 *
 * @example
 * addressKey("::ffff:203.0.113.7"); // "203.0.113.7"
 * addressKey("2001:db8:1:2:a:b:c:d"); // "2001:db8:1:2::/64"
 */
import ipaddr from "ipaddr.js";

/**
 * The throttling key of an IP address, or undefined when `value` is not one. IPv4 (also when
 * IPv4-mapped in IPv6) counts per address; IPv6 per /64, because one subscriber is usually given
 * a whole /64 and could otherwise rotate through 2^64 addresses to escape every per-address limit.
 *
 * @example
 * addressKey("fe80::1%eth0"); // "fe80:0:0:0::/64"
 * addressKey("not an address"); // undefined
 */
export function addressKey(value: string | undefined): string | undefined {
  if (typeof value !== "string") return undefined;
  const text = value.trim().replace(/^\[(.*)\]$/, "$1").replace(/%.*$/, "");
  // Only dotted quads for IPv4: legacy forms such as "1.2.3" or "0x7f.1" are not peer addresses.
  if (!ipaddr.IPv4.isValidFourPartDecimal(text) && !ipaddr.IPv6.isValid(text)) return undefined;
  const address = ipaddr.process(text);
  if (address.kind() === "ipv4") return address.toString();
  const groups = (address as ipaddr.IPv6).toNormalizedString().split(":").slice(0, 4);
  return `${groups.join(":")}::/64`;
}
