import { describe, expect, it } from 'vitest';
import { documentStatusText } from './document-status.ts';

describe('documentStatusText', () => {
  it('says what staff decided, with the reason of a rejection', () => {
    expect(documentStatusText('id', 'verified', null, true)).toBe('ID: verified');
    expect(documentStatusText('id', 'pending', null, true)).toBe('ID: pending review');
    expect(documentStatusText('medcard', 'rejected', ' The card is expired. ', true)).toBe('Medical card: rejected: The card is expired.');
    expect(documentStatusText('medcard', 'rejected', '', true)).toBe('Medical card: rejected');
  });

  it('calls an upload nobody reviewed yet pending, and says nothing without an upload', () => {
    expect(documentStatusText('id', 'none', null, true)).toBe('ID: pending review');
    expect(documentStatusText('id', undefined, null, true)).toBe('ID: pending review');
    expect(documentStatusText('medcard', 'none', null, false)).toBeNull();
  });
});
