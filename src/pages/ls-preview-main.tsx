import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { captureQueryToken } from '../session/query-token';
import { LsPreviewPage } from './ls-preview-page';

// The viewer's own page (ls-preview.html): only React, the page model, the renderer and ECharts. It
// has no antd: a link's token of another account is asked about with the browser's own dialog.
captureQueryToken(async (o) => window.confirm(o.content));
const container = document.getElementById('root');
if (!container) throw new Error('ls-preview.html has no #root element');
createRoot(container).render(
  <StrictMode>
    <LsPreviewPage search={window.location.search} />
  </StrictMode>,
);
