import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import './ui.css';

/**
 * The spec's "alerts", shown as toasts in a live region instead of blocking
 * window.alert() dialogs (decision 006): the words are the spec's, word for word.
 */
type Tone = 'info' | 'success' | 'error';
interface ToastOptions {
  /**
   * What the toast is about ('reserve', 'staff-login' …): a new toast with the same key replaces
   * the old one, and dismissToast(key) clears it, so a success takes away the error it answers.
   */
  key?: string;
}
interface ToastItem {
  id: number;
  message: string;
  tone: Tone;
  key?: string;
}
type ShowToast = (message: string, tone?: Tone, options?: ToastOptions) => void;

const ToastContext = createContext<ShowToast | null>(null);
const DismissContext = createContext<((key: string) => void) | null>(null);

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<ToastItem[]>([]);
  const nextId = useRef(1);
  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((toast) => toast.id !== id)), []);
  const dismissKey = useCallback((key: string) => setToasts((all) => all.filter((toast) => toast.key !== key)), []);
  const show = useCallback<ShowToast>(
    (message, tone = 'info', options = {}) => {
      const id = nextId.current++;
      const { key } = options;
      setToasts((all) => [...all.filter((toast) => key === undefined || toast.key !== key).slice(-2), { id, message, tone, key }]);
      window.setTimeout(() => dismiss(id), tone === 'error' ? 8000 : 6000);
    },
    [dismiss],
  );
  const value = useMemo(() => show, [show]);
  return (
    <ToastContext.Provider value={value}>
      <DismissContext.Provider value={dismissKey}>{children}</DismissContext.Provider>
      <div className="toast-region" role="status" aria-live="polite">
        {toasts.map((toast) => (
          <div key={toast.id} className={`toast toast--${toast.tone}`} role={toast.tone === 'error' ? 'alert' : undefined} data-testid="toast">
            <span>{toast.message}</span>
            <button type="button" className="toast__close" aria-label="Dismiss" onClick={() => dismiss(toast.id)}>
              ×
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

/** show(message, tone, { key }): an alert-like message that survives a navigation. */
export function useToast(): ShowToast {
  const show = useContext(ToastContext);
  if (!show) throw new Error('useToast needs a ToastProvider');
  return show;
}

/** dismissToast(key): takes away the toasts shown with that key (an error the success just answered). */
export function useDismissToast(): (key: string) => void {
  const dismissKey = useContext(DismissContext);
  if (!dismissKey) throw new Error('useDismissToast needs a ToastProvider');
  return dismissKey;
}
