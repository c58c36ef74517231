import { useEffect, useRef, type RefObject } from 'react';

export type Edge = 'top' | 'bottom';

interface Box {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

/** The notices' own boxes (not the full-width, click-through frame around them). */
function stackBox(stack: HTMLElement): Box | null {
  const boxes = [...stack.querySelectorAll<HTMLElement>('[data-notifications] > *')].map((el) => el.getBoundingClientRect());
  if (boxes.length === 0) return null;
  return {
    top: Math.min(...boxes.map((b) => b.top)),
    bottom: Math.max(...boxes.map((b) => b.bottom)),
    left: Math.min(...boxes.map((b) => b.left)),
    right: Math.max(...boxes.map((b) => b.right)),
  };
}

const overlaps = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/**
 * The edge for the notices: the current one unless there they would cover the control, else the
 * other one (where they may still cover it if the control is as tall as the screen: then the edge
 * covering less of it).
 */
export function pickEdge(current: Edge, stack: HTMLElement, control: Box | null, topInset: number): Edge {
  const box = stackBox(stack);
  if (!box || !control) return current;
  const height = box.bottom - box.top;
  const frame = stack.getBoundingClientRect();
  // The frame's own padding above the first notice, the same at either edge.
  const gapTop = box.top - frame.top + topInset;
  const gapBottom = frame.bottom - box.bottom;
  const at = (edge: Edge): Box =>
    edge === 'top'
      ? { ...box, top: gapTop, bottom: gapTop + height }
      : { ...box, top: window.innerHeight - gapBottom - height, bottom: window.innerHeight - gapBottom };
  if (!overlaps(at(current), control)) return current;
  const other: Edge = current === 'top' ? 'bottom' : 'top';
  if (!overlaps(at(other), control)) return other;
  const covered = (b: Box) => Math.max(0, Math.min(b.bottom, control.bottom) - Math.max(b.top, control.top));
  return covered(at(other)) < covered(at(current)) ? other : current;
}

/**
 * Where a stack at the top edge starts: below the page header while it is in view, so a notice
 * that stays never hides the header's cart, account or navigation.
 */
export function headerInset(): number {
  const header = document.querySelector('header');
  return header ? Math.max(0, Math.round(header.getBoundingClientRect().bottom)) : 0;
}

/** The control the shopper last pressed or focused outside the notices (what a notice must not cover). */
export function useLastControl(stackRef: RefObject<HTMLElement | null>): RefObject<Element | null> {
  const last = useRef<Element | null>(null);
  useEffect(() => {
    const note = (event: Event) => {
      const target = event.target instanceof Element ? event.target : null;
      if (!target || stackRef.current?.contains(target)) return;
      // A form part may name its whole group (quantity + Add to cart) as what must stay clear.
      last.current = target.closest('[data-notice-anchor]') ?? target.closest('button, a, input, select, textarea, label, [role=radio], [role=checkbox]') ?? target;
    };
    document.addEventListener('pointerdown', note, true);
    document.addEventListener('focusin', note, true);
    return () => {
      document.removeEventListener('pointerdown', note, true);
      document.removeEventListener('focusin', note, true);
    };
  }, [stackRef]);
  return last;
}
