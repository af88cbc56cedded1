import net from 'node:net';

/**
 * The address a per-address limit counts by: an IPv4 address as it is, an IPv6 address by its
 * /64 network (one phone or one home is given a whole /64, so any address in it is the same
 * client), an IPv4 address written as IPv6 (::ffff:a.b.c.d) as IPv4.
 */
export function addressKey(ip: string | undefined | null): string {
  if (!ip) return '';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (net.isIPv6(ip)) return `${expandIPv6(ip).slice(0, 4).join(':')}::/64`;
  return ip;
}

/** The eight groups of an IPv6 address, each as lower-case hex without leading zeros. */
function expandIPv6(ip: string): string[] {
  const [head, tail] = ip.split('%')[0]!.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = tail !== undefined && tail !== '' ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return groups.map((g) => (g.includes('.') ? g : parseInt(g || '0', 16).toString(16)));
}
