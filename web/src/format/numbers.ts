// Exact number formatting. Money arrives as integer micro-units and device
// time as milli-device-seconds, both int64 JSON strings: sums and roundings
// are done with BigInt so no float ever touches an amount.

// Thousands separated by commas, as en-US writes them. Not Intl.NumberFormat:
// the first one a page makes loads the locale's data, about 45 ms of the
// Fleet page's main thread before its first figure.
function grouped(whole: bigint): string {
  return whole.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

// A JSON int64 (string, absent when zero) as a BigInt; bad text is an error
// rather than a silent zero, since it would hide a wrong total.
export function big(value: string | undefined): bigint {
  if (value === undefined || value === '') return 0n;
  if (!/^-?\d{1,20}$/.test(value)) throw new Error(`not an integer: ${JSON.stringify(value.slice(0, 40))}`);
  return BigInt(value);
}

export function sumBig(values: Iterable<string | undefined>): bigint {
  let total = 0n;
  for (const value of values) total += big(value);
  return total;
}

// value / divisor rounded half away from zero, with `decimals` places.
export function divideRounded(value: bigint, divisor: bigint, decimals: number): string {
  const negative = value < 0n !== divisor < 0n && value !== 0n;
  const scale = 10n ** BigInt(decimals);
  const abs = (n: bigint) => (n < 0n ? -n : n);
  const scaled = (abs(value) * scale * 2n + abs(divisor)) / (abs(divisor) * 2n);
  const whole = scaled / scale;
  const fraction = (scaled % scale).toString().padStart(decimals, '0');
  const text = grouped(whole) + (decimals > 0 ? `.${fraction}` : '');
  return negative && scaled !== 0n ? `-${text}` : text;
}

// Micro-units as "USD 1,234.57" (cents, rounded half away from zero).
export function formatMoney(micro: bigint | string | undefined, currency = 'USD'): string {
  const value = typeof micro === 'bigint' ? micro : big(micro);
  return `${currency} ${divideRounded(value, 1_000_000n, 2)}`;
}

// Milli-device-seconds as device-hours with one decimal.
export function formatDeviceHours(milliSeconds: bigint | string | undefined): string {
  const value = typeof milliSeconds === 'bigint' ? milliSeconds : big(milliSeconds);
  return divideRounded(value, 3_600_000n, 1);
}

// Device time at the scale it has, so that no time held reads as zero: from
// a device-hour, device-hours with two decimals ("2.50 device-h"); from a
// device-minute, device-minutes with one ("12.5 device-min"); below that,
// device-seconds with up to three, the smallest unit there is ("0.5
// device-s", a pod that held half a device for a second). Rounding never
// takes a time to zero: each unit shows at least one of itself.
export function formatDeviceTime(milliSeconds: bigint | string | undefined): string {
  const value = typeof milliSeconds === 'bigint' ? milliSeconds : big(milliSeconds);
  const magnitude = value < 0n ? -value : value;
  if (magnitude >= 3_600_000n) return `${divideRounded(value, 3_600_000n, 2)} device-h`;
  if (magnitude >= 60_000n) return `${divideRounded(value, 60_000n, 1)} device-min`;
  const seconds = divideRounded(value, 1000n, 3);
  return `${seconds.includes('.') ? seconds.replace(/\.?0+$/, '') : seconds} device-s`;
}

// Milli-devices as devices with up to three decimals ("2.5", "8").
export function formatDevices(milli: bigint | string | undefined): string {
  const value = typeof milli === 'bigint' ? milli : big(milli);
  const text = divideRounded(value, 1000n, 3);
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

// part / whole as a percentage with one decimal; "–" when whole is zero.
export function formatRatio(part: bigint, whole: bigint): string {
  if (whole === 0n) return '–';
  return `${divideRounded(part * 100n, whole, 1)}%`;
}

// A 0..1 double (the API's efficiency) as a percentage with one decimal.
export function formatFraction(value: number | undefined): string {
  return `${((value ?? 0) * 100).toFixed(1)}%`;
}

export function formatTime(rfc3339: string | undefined): string {
  if (!rfc3339) return '–';
  return rfc3339.replace('T', ' ').replace(/(\.\d+)?Z$/, ' UTC');
}
