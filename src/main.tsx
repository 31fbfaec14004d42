import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppRoot } from './app/app-root';
import { captureQueryToken } from './app/query-token';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

captureQueryToken();

createRoot(container).render(
  <StrictMode>
    <AppRoot />
  </StrictMode>,
);
