import { describe, expect, it } from 'vitest';
import { hostName, parseSiteRules, siteOfHost } from './site.js';

describe('entry site by host name', () => {
  it('falls back to the first label, then to management', () => {
    expect(siteOfHost('producer.localhost:5173').kind).toBe('producer');
    expect(siteOfHost('cz.example.com').kind).toBe('disposal');
    expect(siteOfHost('wl.example.com').kind).toBe('logistics');
    expect(siteOfHost('localhost').kind).toBe('management');
    expect(siteOfHost('127.0.0.1').kind).toBe('management');
    expect(siteOfHost(undefined).kind).toBe('management');
  });

  it('applies configured rules first, exact hosts and *. subdomains', () => {
    const { rules, problems } = parseSiteRules(' waste.example.com=producer , *.trans.example.com=logistics,bad=nosuch,=x ');
    expect(problems).toHaveLength(2);
    expect(siteOfHost('WASTE.example.com.', rules).kind).toBe('producer');
    expect(siteOfHost('a.trans.example.com', rules).kind).toBe('logistics');
    expect(siteOfHost('trans.example.com', rules).kind).toBe('management');
    expect(siteOfHost('cf.example.com', rules).kind).toBe('producer');
  });

  it('reads host names without port, brackets kept for IPv6', () => {
    expect(hostName('Example.COM:8080')).toBe('example.com');
    expect(hostName('[::1]:8080')).toBe('[::1]');
  });
});
