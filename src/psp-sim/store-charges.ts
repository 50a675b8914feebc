/**
 * psp-sim charge-side state (base of SimStore): the SQLite file itself (bun:sqlite, WAL), clients,
 * OAuth tokens, locations, cobs, Pix received and webhooks. Amounts in centavos, instants in epoch
 * milliseconds; documents (cob body, payer) as JSON text.
 */
import { Database } from "bun:sqlite";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS clients (
  client_id TEXT PRIMARY KEY, secret_sha256 TEXT NOT NULL, name TEXT NOT NULL, cnpj TEXT NOT NULL,
  city TEXT NOT NULL, pix_keys TEXT NOT NULL, created_ms INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS tokens (
  token TEXT PRIMARY KEY, client_id TEXT NOT NULL, scopes TEXT NOT NULL, expires_ms INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS locs (
  id INTEGER PRIMARY KEY AUTOINCREMENT, client_id TEXT NOT NULL, txid TEXT NOT NULL, location TEXT NOT NULL,
  created_ms INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS cobs (
  client_id TEXT NOT NULL, txid TEXT NOT NULL, revisao INTEGER NOT NULL, status TEXT NOT NULL,
  loc_id INTEGER NOT NULL, doc TEXT NOT NULL, created_ms INTEGER NOT NULL, updated_ms INTEGER NOT NULL,
  PRIMARY KEY (client_id, txid));
CREATE TABLE IF NOT EXISTS pix (
  e2eid TEXT PRIMARY KEY, client_id TEXT NOT NULL, txid TEXT, valor INTEGER NOT NULL, chave TEXT NOT NULL,
  horario_ms INTEGER NOT NULL, info_pagador TEXT, pagador TEXT);
CREATE INDEX IF NOT EXISTS pix_client_horario ON pix (client_id, horario_ms);
CREATE TABLE IF NOT EXISTS webhooks (
  client_id TEXT NOT NULL, chave TEXT NOT NULL, url TEXT NOT NULL, created_ms INTEGER NOT NULL,
  PRIMARY KEY (client_id, chave));
`;

export interface ClientRow {
  client_id: string;
  secret_sha256: string;
  name: string;
  cnpj: string;
  city: string;
  /** JSON array of the receiver's Pix keys (DICT keys the cobs and webhooks may use). */
  pix_keys: string;
  created_ms: number;
}
export interface TokenRow {
  token: string;
  client_id: string;
  scopes: string;
  expires_ms: number;
}
export type CobStatus = "ATIVA" | "CONCLUIDA" | "REMOVIDA_PELO_USUARIO_RECEBEDOR" | "REMOVIDA_PELO_PSP";
export interface CobRow {
  client_id: string;
  txid: string;
  revisao: number;
  status: CobStatus;
  loc_id: number;
  /** JSON of the client-editable cob fields (calendario.expiracao, devedor, valor, chave, ...). */
  doc: string;
  created_ms: number;
  updated_ms: number;
}
export interface LocRow {
  id: number;
  client_id: string;
  txid: string;
  location: string;
  created_ms: number;
}
export interface PixRow {
  e2eid: string;
  client_id: string;
  txid: string | null;
  valor: number;
  chave: string;
  horario_ms: number;
  info_pagador: string | null;
  /** JSON `{nome, cpf|cnpj}` of the payer, or null. */
  pagador: string | null;
}
export interface WebhookRow {
  client_id: string;
  chave: string;
  url: string;
  created_ms: number;
}

/** Typed queries over clients, tokens, locations, cobs, Pix received and webhooks. Every method is synchronous. */
export class ChargeStore {
  readonly db: Database;
  /** Opens (creating if needed) the simulator's database file and its charge-side tables. */
  constructor(file: string) {
    this.db = new Database(file, { create: true, strict: true });
    this.db.exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=5000;");
    this.db.exec(SCHEMA);
  }
  close(): void {
    this.db.close();
  }
  /** Runs `fn` in one BEGIN IMMEDIATE transaction. */
  tx<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  insertClient(row: ClientRow): void {
    this.db
      .query("INSERT INTO clients VALUES ($client_id, $secret_sha256, $name, $cnpj, $city, $pix_keys, $created_ms)")
      .run({ ...row });
  }
  client(clientId: string): ClientRow | null {
    return this.db.query<ClientRow, [string]>("SELECT * FROM clients WHERE client_id = ?").get(clientId);
  }

  clients(): ClientRow[] {
    return this.db.query<ClientRow, []>("SELECT * FROM clients ORDER BY created_ms, client_id").all();
  }

  insertToken(row: TokenRow): void {
    this.db.query("INSERT INTO tokens VALUES ($token, $client_id, $scopes, $expires_ms)").run({ ...row });
  }
  token(token: string): TokenRow | null {
    return this.db.query<TokenRow, [string]>("SELECT * FROM tokens WHERE token = ?").get(token);
  }
  /** Makes every token still valid at `nowMs` expire at `nowMs`; returns how many. */
  expireTokens(nowMs: number): number {
    return this.db.query("UPDATE tokens SET expires_ms = ? WHERE expires_ms > ?").run(nowMs, nowMs).changes;
  }

  insertLoc(clientId: string, txid: string, location: string, nowMs: number): LocRow {
    const { lastInsertRowid } = this.db
      .query("INSERT INTO locs (client_id, txid, location, created_ms) VALUES (?, ?, ?, ?)")
      .run(clientId, txid, location, nowMs);
    return { id: Number(lastInsertRowid), client_id: clientId, txid, location, created_ms: nowMs };
  }
  loc(id: number): LocRow | null {
    return this.db.query<LocRow, [number]>("SELECT * FROM locs WHERE id = ?").get(id);
  }

  cob(clientId: string, txid: string): CobRow | null {
    return this.db
      .query<CobRow, [string, string]>("SELECT * FROM cobs WHERE client_id = ? AND txid = ?")
      .get(clientId, txid);
  }
  /** Every cob with this txid, whatever the client (control routes). */
  cobsByTxid(txid: string): CobRow[] {
    return this.db.query<CobRow, [string]>("SELECT * FROM cobs WHERE txid = ?").all(txid);
  }
  allCobs(): CobRow[] {
    return this.db.query<CobRow, []>("SELECT * FROM cobs ORDER BY created_ms, txid").all();
  }
  putCob(row: CobRow): void {
    this.db
      .query(
        `INSERT INTO cobs VALUES ($client_id, $txid, $revisao, $status, $loc_id, $doc, $created_ms, $updated_ms)
         ON CONFLICT (client_id, txid) DO UPDATE SET revisao = excluded.revisao, status = excluded.status,
           doc = excluded.doc, updated_ms = excluded.updated_ms`,
      )
      .run({ ...row });
  }

  insertPix(row: PixRow): void {
    this.db
      .query("INSERT INTO pix VALUES ($e2eid, $client_id, $txid, $valor, $chave, $horario_ms, $info_pagador, $pagador)")
      .run({ ...row });
  }
  pix(clientId: string, e2eid: string): PixRow | null {
    return this.db
      .query<PixRow, [string, string]>("SELECT * FROM pix WHERE client_id = ? AND e2eid = ?")
      .get(clientId, e2eid);
  }
  pixByE2e(e2eid: string): PixRow | null {
    return this.db.query<PixRow, [string]>("SELECT * FROM pix WHERE e2eid = ?").get(e2eid);
  }
  pixOfCob(clientId: string, txid: string): PixRow[] {
    return this.db
      .query<PixRow, [string, string]>("SELECT * FROM pix WHERE client_id = ? AND txid = ? ORDER BY horario_ms, e2eid")
      .all(clientId, txid);
  }
  /** Pix of a client received in [fromMs, toMs], oldest first. */
  pixBetween(clientId: string, fromMs: number, toMs: number): PixRow[] {
    return this.db
      .query<PixRow, [string, number, number]>(
        "SELECT * FROM pix WHERE client_id = ? AND horario_ms >= ? AND horario_ms <= ? ORDER BY horario_ms, e2eid",
      )
      .all(clientId, fromMs, toMs);
  }
  /** Sets the stored valor and horario of a Pix (control route: an amount or a day that differs). */
  setPixValor(e2eid: string, valor: number, horarioMs: number): void {
    this.db.query("UPDATE pix SET valor = ?, horario_ms = ? WHERE e2eid = ?").run(valor, horarioMs, e2eid);
  }

  putWebhook(row: WebhookRow): void {
    this.db
      .query(
        `INSERT INTO webhooks VALUES ($client_id, $chave, $url, $created_ms)
         ON CONFLICT (client_id, chave) DO UPDATE SET url = excluded.url, created_ms = excluded.created_ms`,
      )
      .run({ ...row });
  }
  webhook(clientId: string, chave: string): WebhookRow | null {
    return this.db
      .query<WebhookRow, [string, string]>("SELECT * FROM webhooks WHERE client_id = ? AND chave = ?")
      .get(clientId, chave);
  }
  webhooksOf(clientId: string): WebhookRow[] {
    return this.db
      .query<WebhookRow, [string]>("SELECT * FROM webhooks WHERE client_id = ? ORDER BY created_ms, chave")
      .all(clientId);
  }
  deleteWebhook(clientId: string, chave: string): boolean {
    return this.db.query("DELETE FROM webhooks WHERE client_id = ? AND chave = ?").run(clientId, chave).changes > 0;
  }
}
