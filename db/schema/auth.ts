/** Tables of the auth group (filled by its issue). */
export {};
