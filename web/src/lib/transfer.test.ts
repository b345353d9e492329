import { describe, expect, it } from 'vitest';
import { createRateMeter, formatBytes, formatSpeed, formatTimeLeft } from './transfer';

const s = (text: string) => text.replaceAll(' ', '\u00a0');

describe('upload progress in French', () => {
  it('writes sizes and speeds with a decimal comma and a no-break space before the unit', () => {
    expect(formatBytes(1)).toBe(s('1 octet'));
    expect(formatBytes(512)).toBe(s('512 octets'));
    expect(formatBytes(850 * 1024)).toBe(s('850 ko'));
    expect(formatBytes(12.4 * 1024 * 1024)).toBe(s('12,4 Mo'));
    expect(formatBytes(3 * 1024 * 1024)).toBe(s('3,0 Mo'));
    expect(formatBytes(200 * 1024 * 1024)).toBe(s('200 Mo'));
    expect(formatBytes(1.25 * 1024 ** 3)).toBe(s('1,3 Go'));
    expect(formatSpeed(12.4 * 1024 * 1024)).toBe(s('12,4 Mo/s'));
    expect(formatSpeed(300 * 1024)).toBe(s('300 ko/s'));
  });

  it('says the time left as a person would', () => {
    expect(formatTimeLeft(3)).toBe('quelques secondes restantes');
    // The no-break space ties a number to its unit only.
    expect(formatTimeLeft(41)).toBe('environ 40\u00a0s restantes');
    expect(formatTimeLeft(70)).toBe('environ 1\u00a0min restante');
    expect(formatTimeLeft(125)).toBe('environ 2\u00a0min restantes');
    expect(formatTimeLeft(3600 + 5 * 60)).toBe('environ 1\u00a0h\u00a005 restantes');
  });

  it('measures the speed over the last seconds and starts over after a resume or a pause', () => {
    const meter = createRateMeter(5000);
    meter.add(0, 0);
    expect(meter.rate()).toBeNull();
    meter.add(1_000_000, 500);
    expect(meter.rate()).toBeNull();
    meter.add(2_000_000, 1000);
    expect(meter.rate()).toBe(2_000_000);
    // Only the last five seconds count.
    for (let t = 2000; t <= 10_000; t += 1000) meter.add(2_000_000 + (t - 1000) * 100, t);
    expect(meter.rate()).toBeCloseTo(100_000, -3);
    // A resume re-sends from an earlier offset: a new window.
    meter.add(1_500_000, 11_000);
    expect(meter.rate()).toBeNull();
    meter.add(2_500_000, 12_000);
    expect(meter.rate()).toBe(1_000_000);
    // Ten seconds offline: the old samples do not pull the speed down.
    meter.add(2_600_000, 22_000);
    meter.add(3_600_000, 23_000);
    expect(meter.rate()).toBe(1_000_000);
  });
});
