import { useEffect, useRef, useState } from 'react';
import type { LiveOrderEvent } from './types.ts';

/** What the store's event stream pushes for an order (the contract: @verdant/domain/console-api live.ts). */
export type { LiveOrderEvent } from './types.ts';

export type LiveState = 'connecting' | 'live' | 'offline';

let audio: AudioContext | null = null;

/** Two short tones from the Web Audio API (no sound file to fetch). Browsers may hold audio until the page was used once. */
export function chime(): void {
  try {
    audio ??= new AudioContext();
    const start = audio.currentTime;
    for (const [offset, freq] of [
      [0, 880],
      [0.18, 1320],
    ] as const) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = 'sine';
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, start + offset);
      gain.gain.exponentialRampToValueAtTime(0.25, start + offset + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + offset + 0.16);
      osc.connect(gain).connect(audio.destination);
      osc.start(start + offset);
      osc.stop(start + offset + 0.18);
    }
  } catch {
    // No audio device: the title badge and the announcement still tell.
  }
}

/**
 * The store's live order events over Server-Sent Events. EventSource retries by itself after a
 * dropped connection; when the server refused the stream (it closes for good), we open a new one
 * with a growing delay. Every (re)connect is reported, so the page can read the list again and
 * miss nothing that happened while it was away.
 */
export function useStoreEvents(storeId: number | null, onEvent: (event: LiveOrderEvent) => void, onConnected: () => void): LiveState {
  const [state, setState] = useState<LiveState>('connecting');
  const handlers = useRef({ onEvent, onConnected });
  handlers.current = { onEvent, onConnected };

  useEffect(() => {
    if (storeId === null) return;
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let delay = 1000;
    let stopped = false;
    const seen = new Set<string>();

    const open = () => {
      setState('connecting');
      source = new EventSource(`/api/console/stores/${storeId}/events`);
      source.addEventListener('ready', () => {
        delay = 1000;
        setState('live');
        handlers.current.onConnected();
      });
      source.addEventListener('order', (message) => {
        let event: LiveOrderEvent;
        try {
          event = JSON.parse((message as MessageEvent<string>).data) as LiveOrderEvent;
        } catch {
          return;
        }
        // One event may reach us twice (a reconnect replays); act once.
        if (event.event_id) {
          if (seen.has(event.event_id)) return;
          seen.add(event.event_id);
        }
        handlers.current.onEvent(event);
      });
      source.onerror = () => {
        if (stopped || !source) return;
        if (source.readyState === EventSource.CLOSED) {
          setState('offline');
          source = null;
          retry = setTimeout(open, delay);
          delay = Math.min(delay * 2, 30_000);
        } else {
          setState('connecting');
        }
      };
    };
    open();
    return () => {
      stopped = true;
      clearTimeout(retry);
      source?.close();
    };
  }, [storeId]);

  return state;
}
