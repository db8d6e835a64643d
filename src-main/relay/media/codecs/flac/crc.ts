/**
 * The two checksums of a FLAC frame: CRC-8 (polynomial x^8+x^2+x+1, 0x07) closes the frame
 * header, CRC-16 (x^16+x^15+x^2+1, 0x8005) the whole frame. Both start at 0, MSB first, no
 * final XOR. A decoder drops a frame whose checksum is wrong, so these must be exact.
 */
function table(width: 8 | 16, polynomial: number): Uint16Array {
  const top = 1 << (width - 1);
  const mask = (1 << width) - 1;
  return Uint16Array.from({ length: 256 }, (_, byte) => {
    let crc = byte << (width - 8);
    for (let bit = 0; bit < 8; bit++) crc = crc & top ? ((crc << 1) ^ polynomial) & mask : (crc << 1) & mask;
    return crc;
  });
}

const CRC8 = table(8, 0x07);
const CRC16 = table(16, 0x8005);

export function crc8(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let crc = 0;
  for (let i = start; i < end; i++) crc = CRC8[crc ^ bytes[i]!]!;
  return crc;
}

export function crc16(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let crc = 0;
  for (let i = start; i < end; i++) crc = ((crc << 8) & 0xffff) ^ CRC16[(crc >> 8) ^ bytes[i]!]!;
  return crc;
}
