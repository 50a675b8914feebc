/** Tables of the payments group (filled by its issue). */
export {};
