import { useEffect, useId, useRef, useState } from 'react';
import { useLocation } from 'react-router';

/**
 * A header menu's open state: a button that shows a panel (the disclosure pattern). It closes the
 * ways people expect: on Escape (focus goes back to the button, so the keyboard user is not lost),
 * on a press outside it, when the focus moves out of it (Tab past the last item), and on any other
 * page (the menu remembers the page it was opened on).
 */
export function useDisclosure<Root extends HTMLElement = HTMLDivElement>() {
  const location = useLocation();
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === location.pathname;
  const root = useRef<Root>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const panelId = useId();

  useEffect(() => {
    if (!open) return;
    const isInside = (node: EventTarget | null) => node instanceof Node && (root.current?.contains(node) ?? false);
    const onPointer = (event: PointerEvent) => {
      if (!isInside(event.target)) setOpenOn(null);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpenOn(null);
      trigger.current?.focus();
    };
    // relatedTarget is null when the focus leaves the page itself (another window): the menu stays.
    const onFocusOut = (event: FocusEvent) => {
      if (event.relatedTarget && !isInside(event.relatedTarget)) setOpenOn(null);
    };
    const element = root.current;
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    element?.addEventListener('focusout', onFocusOut);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
      element?.removeEventListener('focusout', onFocusOut);
    };
  }, [open]);

  return {
    open,
    close: () => setOpenOn(null),
    toggle: () => setOpenOn(open ? null : location.pathname),
    /** For the element that holds both the button and the panel. */
    rootRef: root,
    /** For the button (it gets the focus back on Escape). */
    triggerRef: trigger,
    panelId,
  };
}
