/** An IPv4 address in dotted form as one unsigned 32-bit number (host order). */
export function ipv4Number(address: string): number {
  const parts = address.split('.');
  if (parts.length !== 4) throw new Error(`not an IPv4 address: ${address}`);
  let value = 0;
  for (const part of parts) {
    const byte = Number(part);
    if (!/^\d{1,3}$/.test(part) || byte > 255) throw new Error(`not an IPv4 address: ${address}`);
    value = value * 256 + byte;
  }
  return value;
}
