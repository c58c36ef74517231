/** The wishlist's title: the header's button (./WishlistPanel.tsx) and its dialog (./WishlistDialog.tsx, loaded on first open) both read it. */
export const WISHLIST_TITLE = 'Wishlist';
