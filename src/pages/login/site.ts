import { useState } from 'react';
import { site as siteCalls } from '../../contract/bare.gen';
import { api, useLookup } from '../../request';
import { type Site, siteOfHost } from '../../shared/site';

/** The entry site as the server names it: which site, its label and colour, and the system's name. */
export interface SiteAnswer extends Site {
  host: string;
  systemName: string | null;
}

// The login route's initial JS loads no zod: the site is read through its bare call.
const loadSite = (signal: AbortSignal): Promise<SiteAnswer> => api(siteCalls.get, {}, { silent: true, skipAuthHandlers: true, signal });

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
