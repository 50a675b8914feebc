/** Tables of the med group (filled by its issue). */
export {};
