import { addressLines, mapLink } from '@verdant/domain';

/**
 * A delivery address as staff and drivers read it (issue 26): every line the shopper gave, and a
 * map link that opens a new tab (or the phone's maps app). One component for the order page and the queue.
 */
export function Address({ value, compact = false }: { value: unknown; compact?: boolean }) {
  const lines = addressLines(value);
  if (!lines) return null;
  const map = mapLink(value);
  const all = [...lines.street, lines.locality].filter(Boolean);
  return (
    <address className="not-italic" data-testid="delivery-address">
      {compact ? (
        <span>{all.join(', ')}</span>
      ) : (
        all.map((line, i) => (
          <span key={i} className="block">
            {line}
          </span>
        ))
      )}
      {map && (
        <a href={map} target="_blank" rel="noopener noreferrer" className={`link ${compact ? 'ml-1 text-sm' : 'mt-1 inline-block'}`}>
          Map<span className="sr-only"> of {all.join(', ')}</span> (new tab)
        </a>
      )}
    </address>
  );
}
