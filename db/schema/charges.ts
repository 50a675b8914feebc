/** Tables of the charges group (filled by its issue). */
export {};
