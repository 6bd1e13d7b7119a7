/**
 * Where the layout changes with the room it has. Every switch is CSS (media and container
 * queries), so the pages lay out the same with JavaScript off.
 */

/** A view's section narrower than this (a phone) shows the narrow charts and stacks its tables. */
export const NARROW_SECTION = "(max-width: 37.5rem)";

/** A section narrower than this stacks its tables of many columns (the upload history). */
export const NARROW_SECTION_WIDE_TABLE = "(max-width: 50rem)";

/** A phone's screen: the patient's header folds its report links away and its tabs form a grid. */
export const PHONE = "screen and (max-width: 40rem)";

/** A screen too narrow for the patient list beside the page: one column, the list folded on a patient's page. */
export const ONE_COLUMN = "screen and (max-width: 800px)";

/** Room for the patient list beside the page. */
export const TWO_COLUMNS = "screen and (min-width: 801px)";
