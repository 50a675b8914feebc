/** The accounts repository of the storage port (methods in domain terms; see src/store/port.ts). */

/** Every method is asynchronous; inside `store.tx` it runs in the unit of work. */
export interface AccountsRepo {}
