import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import './styles/fonts.css';
import './styles/base.css';
import { ToastProvider } from './components/ui/Toast.tsx';
import { createRouter } from './router.tsx';
import { createQueryClient } from './api/query-client.ts';
import { registerServiceWorker } from './features/offline/service-worker.ts';

const queryClient = createQueryClient();
// The installable app's worker (decision 212): production builds only, so the dev server never serves a stale shell.
if (import.meta.env.PROD) registerServiceWorker();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
        <RouterProvider router={createRouter()} />
      </ToastProvider>
    </QueryClientProvider>
  </StrictMode>,
);
