import { describe, expect, it } from 'vitest';
import { clientKeyOf } from './client-address.js';

describe('clientKeyOf (decision 135)', () => {
  it('keeps an IPv4 address whole', () => {
    expect(clientKeyOf('203.0.113.9')).toBe('203.0.113.9');
    expect(clientKeyOf('203.0.113.10')).not.toBe(clientKeyOf('203.0.113.9'));
  });

  it('reads an IPv4-mapped IPv6 address as the IPv4 address', () => {
    expect(clientKeyOf('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(clientKeyOf('::FFFF:cb00:7109')).toBe('203.0.113.9');
    expect(clientKeyOf('0:0:0:0:0:ffff:203.0.113.9')).toBe('203.0.113.9');
  });

  it('keys every address of one IPv6 /64 alike, whatever its spelling', () => {
    const keys = new Set(
      ['2001:db8::1', '2001:db8:0:0:ffff:ffff:ffff:ffff', '2001:DB8:0000:0000::abcd', '2001:db8::1.2.3.4', '2001:db8::dead:beef%eth0'].map(
        clientKeyOf,
      ),
    );
    expect([...keys]).toEqual(['2001:db8:0:0::/64']);
  });

  it('keeps two /64s apart', () => {
    expect(clientKeyOf('2001:db8:0:1::1')).toBe('2001:db8:0:1::/64');
    expect(clientKeyOf('2001:db8:0:1::1')).not.toBe(clientKeyOf('2001:db8:0:2::1'));
    expect(clientKeyOf('::1')).toBe('0:0:0:0::/64');
  });

  it('leaves anything that is not an address as it is', () => {
    expect(clientKeyOf('')).toBe('');
    expect(clientKeyOf('not-an-ip')).toBe('not-an-ip');
  });
});
