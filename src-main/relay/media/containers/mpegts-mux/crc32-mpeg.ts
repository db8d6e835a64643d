/** CRC-32/MPEG-2 (polynomial 0x04C11DB7, MSB first, no final XOR): the checksum of PSI sections. */
const TABLE = Object.freeze(
  Array.from({ length: 256 }, (_, byte) => {
    let crc = byte << 24;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x80000000 ? (crc << 1) ^ 0x04c11db7 : crc << 1;
    return crc >>> 0;
  }),
);

export function crc32Mpeg(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = ((crc << 8) ^ TABLE[((crc >>> 24) ^ byte) & 0xff]!) >>> 0;
  return crc;
}
