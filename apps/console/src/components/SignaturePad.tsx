import { useEffect, useImperativeHandle, useRef, useState, type PointerEvent, type Ref } from 'react';

export interface SignaturePadHandle {
  /** The drawing as a PNG data URL; null while nothing is drawn. */
  toDataUrl(): string | null;
  clear(): void;
}

/**
 * The customer signs on the screen (issue 29, at the door): a canvas drawn with pointer events
 * (finger, pen or mouse alike), exported as a PNG data URL. A canvas says nothing to a screen
 * reader, so the pad is a labelled group with a text note that a signature is required and a
 * status line ("Not signed yet" / "Signed"); Clear starts again.
 */
export function SignaturePad({
  id,
  label,
  onChange,
  invalid = false,
  ref,
}: {
  id: string;
  label: string;
  onChange?: (signed: boolean) => void;
  invalid?: boolean;
  ref?: Ref<SignaturePadHandle>;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const drawing = useRef<{ x: number; y: number } | null>(null);
  const [signed, setSigned] = useState(false);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  // The bitmap at the device's pixel density, sized to the box it is shown in.
  useEffect(() => {
    const c = canvas.current;
    if (!c) return;
    const ratio = window.devicePixelRatio || 1;
    const box = c.getBoundingClientRect();
    c.width = Math.max(1, Math.round(box.width * ratio));
    c.height = Math.max(1, Math.round(box.height * ratio));
    const ctx = c.getContext('2d');
    if (!ctx) return;
    ctx.scale(ratio, ratio);
    ctx.lineWidth = 2.5;
    ctx.lineCap = 'round';
    ctx.lineJoin = 'round';
    ctx.strokeStyle = '#1c1917';
  }, []);

  const mark = (value: boolean) => {
    setSigned(value);
    onChangeRef.current?.(value);
  };

  const clear = () => {
    const c = canvas.current;
    const ctx = c?.getContext('2d');
    if (c && ctx) {
      ctx.save();
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.clearRect(0, 0, c.width, c.height);
      ctx.restore();
    }
    mark(false);
  };

  useImperativeHandle(ref, () => ({
    toDataUrl: () => {
      const c = canvas.current;
      if (!c || !signed) return null;
      // On white: a transparent PNG prints as nothing on some receipts.
      const out = document.createElement('canvas');
      out.width = c.width;
      out.height = c.height;
      const ctx = out.getContext('2d');
      if (!ctx) return c.toDataURL('image/png');
      ctx.fillStyle = '#ffffff';
      ctx.fillRect(0, 0, out.width, out.height);
      ctx.drawImage(c, 0, 0);
      return out.toDataURL('image/png');
    },
    clear,
  }));

  const point = (event: PointerEvent<HTMLCanvasElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    return { x: event.clientX - box.left, y: event.clientY - box.top };
  };

  return (
    <div role="group" aria-labelledby={`${id}-label`} aria-describedby={`${id}-note ${id}-state`}>
      <p id={`${id}-label`} className="font-medium">
        {label}
      </p>
      <p id={`${id}-note`} className="text-sm text-stone-700">
        A signature is required: hand the phone to the customer to sign in the box with a finger.
      </p>
      <canvas
        ref={canvas}
        data-testid="signature-pad"
        aria-hidden="true"
        className={`mt-2 block h-40 w-full touch-none rounded border-2 bg-white ${invalid ? 'border-red-700' : 'border-stone-500'}`}
        onPointerDown={(event) => {
          event.currentTarget.setPointerCapture(event.pointerId);
          const p = point(event);
          drawing.current = p;
          const ctx = event.currentTarget.getContext('2d');
          if (ctx) {
            ctx.beginPath();
            ctx.arc(p.x, p.y, 1, 0, Math.PI * 2);
            ctx.fillStyle = '#1c1917';
            ctx.fill();
          }
        }}
        onPointerMove={(event) => {
          const from = drawing.current;
          if (!from) return;
          const to = point(event);
          const ctx = event.currentTarget.getContext('2d');
          if (ctx) {
            ctx.beginPath();
            ctx.moveTo(from.x, from.y);
            ctx.lineTo(to.x, to.y);
            ctx.stroke();
          }
          drawing.current = to;
          if (!signed) mark(true);
        }}
        onPointerUp={() => (drawing.current = null)}
        onPointerCancel={() => (drawing.current = null)}
      />
      <div className="mt-2 flex flex-wrap items-center justify-between gap-2">
        <p id={`${id}-state`} className={`text-sm font-medium ${signed ? 'text-green-900' : invalid ? 'text-red-800' : 'text-stone-700'}`}>
          {signed ? 'Signed' : 'Not signed yet'}
        </p>
        <button type="button" className="btn-secondary" onClick={clear}>
          Clear signature
        </button>
      </div>
    </div>
  );
}
