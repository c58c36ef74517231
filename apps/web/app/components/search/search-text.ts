/**
 * What the header search (./SearchPanel.tsx), its dialog (./SearchDialog.tsx, loaded on first
 * open) and the menu's own search form (../catalog/CategoryView.tsx) share.
 */
export const SEARCH_PANEL_TITLE = 'Search the menu';
/** The full results page: the menu with the search text (works without JavaScript). */
export const SEARCH_RESULTS_PATH = '/menu';
export const SEARCH_ANCHOR = 'menu-search';
