/**
 * What the account says about the customer's ID and medical card (issue 12): staff verify them
 * against the uploads in the console, or reject them with a reason the customer must read.
 */
import type { DocumentStatus } from '@verdant/domain';

export type DocumentKind = 'id' | 'medcard';

export const DOCUMENT_NAMES: Record<DocumentKind, string> = { id: 'ID', medcard: 'Medical card' };

/**
 * `ID: verified`, `Medical card: rejected: The card is expired.`, `ID: pending review`. An upload
 * the server has not reviewed yet is pending even when the status predates it (`none`); with
 * nothing uploaded and nothing reviewed there is nothing to say (the list says "Not uploaded yet").
 */
export function documentStatusText(
  kind: DocumentKind,
  status: DocumentStatus | undefined,
  reason: string | null | undefined,
  uploaded: boolean,
): string | null {
  const name = DOCUMENT_NAMES[kind];
  switch (status) {
    case 'verified':
      return `${name}: verified`;
    case 'rejected':
      return reason?.trim() ? `${name}: rejected: ${reason.trim()}` : `${name}: rejected`;
    case 'pending':
      return `${name}: pending review`;
    default:
      return uploaded ? `${name}: pending review` : null;
  }
}
