import { big, divideRounded, formatDeviceHours, formatDevices, formatDeviceTime, formatMoney, formatRatio, sumBig } from './numbers';

describe('money formatting', () => {
  test('micro-units become currency with cents, exactly', () => {
    expect(formatMoney('1234567890')).toBe('USD 1,234.57');
    expect(formatMoney('1000000', 'EUR')).toBe('EUR 1.00');
    expect(formatMoney(undefined)).toBe('USD 0.00');
    expect(formatMoney('4999')).toBe('USD 0.00');
    expect(formatMoney('5000')).toBe('USD 0.01');
    expect(formatMoney('-1234567890')).toBe('USD -1,234.57');
  });

  test('amounts beyond 2^53 keep every digit (no float on the way)', () => {
    // 2^53 + 1 micro-units: a float would print ...992.
    expect(formatMoney('9007199254740993')).toBe('USD 9,007,199,254.74');
    expect(sumBig(['9007199254740993', '1', undefined])).toBe(9007199254740994n);
    expect(formatMoney(sumBig(['9007199254740993', '2500000']))).toBe('USD 9,007,199,257.24');
  });

  test('bad integer text is an error, not a silent zero', () => {
    expect(() => big('12.5')).toThrow(/not an integer/);
    expect(() => big('1e9')).toThrow(/not an integer/);
  });
});

describe('other figures', () => {
  test('device time, devices and ratios', () => {
    expect(formatDeviceHours('3600000')).toBe('1.0');
    expect(formatDeviceHours('720000000')).toBe('200.0');
    expect(formatDeviceHours('5400000')).toBe('1.5');
    expect(formatDevices('12500')).toBe('12.5');
    expect(formatDevices('8000')).toBe('8');
    expect(formatDevices('1')).toBe('0.001');
    expect(formatRatio(1n, 3n)).toBe('33.3%');
    expect(formatRatio(1n, 0n)).toBe('–');
    expect(divideRounded(-5n, 10n, 0)).toBe('-1');
  });
});

describe('device time at its scale', () => {
  test('no time held reads as zero: hours, minutes or seconds as the time needs', () => {
    // Half a device for 7 seconds, which device-hours to one decimal read as 0.0.
    expect(formatDeviceHours('3500')).toBe('0.0');
    expect(formatDeviceTime('3500')).toBe('3.5 device-s');
    expect(formatDeviceTime('1')).toBe('0.001 device-s');
    expect(formatDeviceTime('500')).toBe('0.5 device-s');
    expect(formatDeviceTime('59999')).toBe('59.999 device-s');
    expect(formatDeviceTime('60000')).toBe('1.0 device-min');
    expect(formatDeviceTime('750000')).toBe('12.5 device-min');
    expect(formatDeviceTime('3599999')).toBe('60.0 device-min');
    expect(formatDeviceTime('3600000')).toBe('1.00 device-h');
    expect(formatDeviceTime('3618000')).toBe('1.01 device-h');
    expect(formatDeviceTime('18000000')).toBe('5.00 device-h');
    expect(formatDeviceTime('3600000000000')).toBe('1,000,000.00 device-h');
    expect(formatDeviceTime('0')).toBe('0 device-s');
    expect(formatDeviceTime(undefined)).toBe('0 device-s');
  });
});
