/**
 * The Pix key types of the DICT (BCB "Manual de Uso do DICT": CPF, CNPJ, e-mail, phone, random
 * key) and the bank account types of a payout destination, as plain constants: imported by the
 * domain, the providers and the dashboard bundle (this file imports nothing).
 */
export const PIX_KEY_TYPES = ["cpf", "cnpj", "email", "phone", "evp"] as const;
export type PixKeyType = (typeof PIX_KEY_TYPES)[number];

/** Account types of a `bank_account` destination (Efí's `tipoConta`: checking = cacc, savings = svgs). */
export const ACCOUNT_TYPES = ["checking", "savings"] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];
