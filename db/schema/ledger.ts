/** Tables of the ledger group (filled by its issue). */
export {};
