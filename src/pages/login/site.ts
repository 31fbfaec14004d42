import { useState } from 'react';
import { http, useLookup } from '../../request';
import { type Site, siteOfHost } from '../../shared/site';

/** The entry site as the server names it: which site, its label and colour, and the system's name. */
export interface SiteAnswer extends Site {
  host: string;
  systemName: string | null;
}

// The login route's initial JS loads no zod, and the site contract brings it: the address is named here.
const loadSite = (signal: AbortSignal) => http.get<SiteAnswer>('/api/site', undefined, { silent: true, skipAuthHandlers: true, signal });

/**
 * The entry site of the address the page was opened at. The host name's own first label gives the
 * first guess at once (producer.…, disposal.…, logistics.…, else management); the server's answer,
 * which follows its SITE_HOSTS configuration, then replaces it. An unreachable server keeps the guess.
 */
export function useSite(): SiteAnswer {
  const [guess] = useState<SiteAnswer>(() => ({
    ...siteOfHost(window.location.hostname),
    host: window.location.hostname,
    systemName: null,
  }));
  const answer = useLookup('site', loadSite).data;
  return answer?.kind ? answer : guess;
}
