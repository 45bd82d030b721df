/**
 * Session settings for every PGlite we open. PGlite keeps every page in memory: random reads cost
 * what sequential ones do. With the default random_page_cost (4.0) the planner prefers scanning a
 * whole table to a trigram index.
 */
export const PGLITE_SETTINGS = "SET random_page_cost = 1.1";
