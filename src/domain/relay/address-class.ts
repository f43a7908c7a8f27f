/**
 * Where an IP address points, for the relay URL rules (spec "relay pair"): a relay on the public
 * internet needs no permission, one on this machine or a private network needs --allow-private, since
 * pairing with it would make this machine send notifications into that network.
 */
export type AddressClass = 'public' | 'loopback' | 'private';

/** Classifies an IPv4 or IPv6 address as written by the URL parser or DNS; undefined when it is neither. */
export function classifyAddress(address: string): AddressClass | undefined {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const v4 = parseIpv4(bare);
  if (v4 !== undefined) return classifyIpv4(v4);
  const v6 = parseIpv6(bare);
  return v6 === undefined ? undefined : classifyIpv6(v6);
}

function parseIpv4(text: string): number[] | undefined {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part))) return undefined;
  const octets = parts.map(Number);
  return octets.every((octet) => octet <= 255) ? octets : undefined;
}

function classifyIpv4([a, b]: number[]): AddressClass {
  const first = a!;
  const second = b!;
  if (first === 127) return 'loopback';
  const nonPublic =
    first === 0 || // "this network"
    first === 10 ||
    (first === 100 && second >= 64 && second <= 127) || // carrier-grade NAT
    (first === 169 && second === 254) || // link-local
    (first === 172 && second >= 16 && second <= 31) ||
    (first === 192 && second === 168) ||
    (first === 192 && second === 0) || // IETF protocol assignments
    (first === 198 && (second === 18 || second === 19)) || // benchmarking
    first >= 224; // multicast, reserved, broadcast
  return nonPublic ? 'private' : 'public';
}

/** Eight 16-bit groups; an embedded IPv4 tail (`::ffff:10.0.0.1`) is folded into the last two. */
function parseIpv6(text: string): number[] | undefined {
  const zoneless = text.split('%')[0]!;
  if (!/^[0-9a-fA-F:.]+$/.test(zoneless)) return undefined;
  let head = zoneless;
  const tail: number[] = [];
  const lastColon = zoneless.lastIndexOf(':');
  if (zoneless.includes('.', lastColon)) {
    const v4 = parseIpv4(zoneless.slice(lastColon + 1));
    if (v4 === undefined) return undefined;
    tail.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
    head = zoneless.slice(0, lastColon + 1);
    if (head.endsWith(':') && !head.endsWith('::')) head = head.slice(0, -1);
  }
  const halves = head.split('::');
  if (halves.length > 2) return undefined;
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const left = groups(halves[0]!);
  const right = halves.length === 2 ? groups(halves[1]!) : [];
  if (![...left, ...right].every((group) => /^[0-9a-fA-F]{1,4}$/.test(group))) return undefined;
  const given = left.length + right.length + tail.length;
  if (halves.length === 1 ? given !== 8 : given > 7) return undefined;
  const zeros = new Array<number>(8 - given).fill(0);
  return [...left.map(hex), ...zeros, ...right.map(hex), ...tail];
}

function hex(group: string): number {
  return parseInt(group, 16);
}

function classifyIpv6(groups: number[]): AddressClass {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const leadingZeros = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (leadingZeros && g5 === 0 && g6 === 0 && g7 === 1) return 'loopback';
  if (leadingZeros && g5 === 0 && g6 === 0 && g7 === 0) return 'private'; // unspecified
  // IPv4-mapped (::ffff:a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) addresses lead to their IPv4 address.
  if (
    (leadingZeros && g5 === 0xffff) ||
    (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0)
  )
    return classifyIpv4([g6 >> 8, g6 & 0xff, g7 >> 8, g7 & 0xff]);
  if ((g0 & 0xfe00) === 0xfc00) return 'private'; // unique local
  if ((g0 & 0xffc0) === 0xfe80) return 'private'; // link-local
  if ((g0 & 0xff00) === 0xff00) return 'private'; // multicast
  if (g0 === 0x2001 && g1 === 0x0db8) return 'private'; // documentation
  return 'public';
}
