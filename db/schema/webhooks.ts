/** Tables of the webhooks group (filled by its issue). */
export {};
