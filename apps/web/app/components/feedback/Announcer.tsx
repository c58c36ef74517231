import { useEffect, useState } from 'react';
import { onAnnounce } from '../../lib/announce.ts';

/** The page's polite live region; the same message twice in a row is re-announced (a zero-width suffix makes it differ). */
export function Announcer() {
  const [message, setMessage] = useState('');
  useEffect(() => {
    let last = '';
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = onAnnounce((text) => {
      last = last === text ? `${text}\u200b` : text;
      setMessage(last);
      clearTimeout(timer);
      // Clear after a while so stale text is not read when the region is reached by browsing.
      timer = setTimeout(() => setMessage(''), 7000);
    });
    return () => {
      off();
      clearTimeout(timer);
    };
  }, []);
  return (
    <div role="status" aria-live="polite" aria-atomic="true" className="sr-only" data-announcer="">
      {message}
    </div>
  );
}
