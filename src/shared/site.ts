/**
 * Entry sites: producers, disposers and logistics companies each have their own address, and the login
 * page's theme and label follow the host name; any other host is the management site. Which host is
 * which site is configuration: rules `host=site` separated by commas, where a host may start with `*.`
 * to cover its subdomains. Hosts that no rule names fall back to their first label (producer., cf.,
 * disposal., cz., logistics., wl.), so `producer.localhost` works without any configuration.
 */

export const SITE_KINDS = ['producer', 'disposal', 'logistics', 'management'] as const;
export type SiteKind = (typeof SITE_KINDS)[number];

export interface Site {
  kind: SiteKind;
  /** The login page's label. */
  label: string;
  /** The login page's theme colour. */
  color: string;
}

export const SITES: Record<SiteKind, Site> = {
  producer: { kind: 'producer', label: '产废企业端', color: '#13A36B' },
  disposal: { kind: 'disposal', label: '处置企业端', color: '#E6782A' },
  logistics: { kind: 'logistics', label: '物流企业端', color: '#7A5AF8' },
  management: { kind: 'management', label: '管理端', color: '#2F6EFF' },
};

export interface SiteRule {
  /** Lower-case host without port; `*.example.com` covers every subdomain of example.com. */
  host: string;
  kind: SiteKind;
}

/** First labels that name a site when no rule does. */
const BY_FIRST_LABEL: Record<string, SiteKind> = {
  producer: 'producer',
  cf: 'producer',
  disposal: 'disposal',
  cz: 'disposal',
  logistics: 'logistics',
  wl: 'logistics',
};

const isKind = (v: string): v is SiteKind => (SITE_KINDS as readonly string[]).includes(v);

/**
 * Reads `host=site,host=site` (e.g. `cf.example.com=producer,*.wl.example.com=logistics`). Returns the
 * rules and a message per entry it could not read.
 */
export function parseSiteRules(text: string | undefined): { rules: SiteRule[]; problems: string[] } {
  const rules: SiteRule[] = [];
  const problems: string[] = [];
  for (const entry of (text ?? '').split(',')) {
    const e = entry.trim();
    if (!e) continue;
    const [host = '', kind = ''] = e.split('=').map((s) => s.trim().toLowerCase());
    if (!host || !/^(\*\.)?[a-z0-9.-]+$/.test(host)) problems.push(`${e}: host name expected before =`);
    else if (!isKind(kind)) problems.push(`${e}: site must be one of ${SITE_KINDS.join(', ')}`);
    else rules.push({ host, kind });
  }
  return { rules, problems };
}

/** The host name of a Host header: lower case, without port or trailing dot. */
export function hostName(host: string | undefined | null): string {
  const h = (host ?? '').trim().toLowerCase();
  const bare = h.startsWith('[') ? h.slice(0, h.indexOf(']') + 1) : h.replace(/:\d+$/, '');
  return bare.replace(/\.$/, '');
}

/** The site of a host: the first rule that matches, else the host's first label, else management. */
export function siteOfHost(host: string | undefined | null, rules: readonly SiteRule[] = []): Site {
  const h = hostName(host);
  for (const r of rules) {
    if (r.host.startsWith('*.') ? h.endsWith(r.host.slice(1)) : h === r.host) return SITES[r.kind];
  }
  const first = h.split('.')[0] ?? '';
  const kind = h.includes('.') ? BY_FIRST_LABEL[first] : undefined;
  return SITES[kind ?? 'management'];
}
