/**
 * psp-sim state in its own SQLite file (bun:sqlite, WAL), so a restart on the same file keeps
 * clients, tokens, cobs, Pix, devoluções, Efí sends, balances and infractions, webhooks and callback attempts.
 * Self-contained schema (CREATE TABLE IF NOT EXISTS): the simulator is not part of Cofre's database or migrations.
 * Amounts in centavos, instants in epoch milliseconds; documents (cob body, payer) as JSON text.
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
CREATE TABLE IF NOT EXISTS devolucoes (
  e2eid TEXT NOT NULL, id TEXT NOT NULL, rtr_id TEXT NOT NULL, valor INTEGER NOT NULL, natureza TEXT NOT NULL,
  descricao TEXT, status TEXT NOT NULL, motivo TEXT, solicitacao_ms INTEGER NOT NULL, liquidacao_ms INTEGER,
  PRIMARY KEY (e2eid, id));
CREATE TABLE IF NOT EXISTS webhooks (
  client_id TEXT NOT NULL, chave TEXT NOT NULL, url TEXT NOT NULL, created_ms INTEGER NOT NULL,
  PRIMARY KEY (client_id, chave));
CREATE TABLE IF NOT EXISTS sends (
  client_id TEXT NOT NULL, id_envio TEXT NOT NULL, e2eid TEXT NOT NULL, valor INTEGER NOT NULL, pagador_chave TEXT NOT NULL,
  info_pagador TEXT, favorecido TEXT NOT NULL, status TEXT NOT NULL, erro TEXT, solicitacao_ms INTEGER NOT NULL,
  liquidacao_ms INTEGER, PRIMARY KEY (client_id, id_envio));
CREATE TABLE IF NOT EXISTS balances (client_id TEXT PRIMARY KEY, saldo INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS infracoes (
  id TEXT PRIMARY KEY, client_id TEXT NOT NULL, e2eid TEXT NOT NULL, valor INTEGER NOT NULL, status TEXT NOT NULL,
  razao TEXT, tipo_situacao TEXT NOT NULL, defesa TEXT, criado_ms INTEGER NOT NULL, atualizado_ms INTEGER NOT NULL,
  prazo_ms INTEGER NOT NULL, finalizacao_ms INTEGER);
CREATE INDEX IF NOT EXISTS infracoes_client_criado ON infracoes (client_id, criado_ms);
CREATE TABLE IF NOT EXISTS callbacks (
  id INTEGER PRIMARY KEY AUTOINCREMENT, client_id TEXT NOT NULL, url TEXT NOT NULL, body TEXT NOT NULL,
  status TEXT NOT NULL, http_status INTEGER, error TEXT, created_ms INTEGER NOT NULL, sent_ms INTEGER);
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
export type DevolucaoStatus = "EM_PROCESSAMENTO" | "DEVOLVIDO" | "NAO_REALIZADO";
export interface DevolucaoRow {
  e2eid: string;
  id: string;
  rtr_id: string;
  valor: number;
  natureza: string;
  descricao: string | null;
  status: DevolucaoStatus;
  motivo: string | null;
  solicitacao_ms: number;
  liquidacao_ms: number | null;
}
export interface WebhookRow {
  client_id: string;
  chave: string;
  url: string;
  created_ms: number;
}
export type SendStatus = "EM_PROCESSAMENTO" | "REALIZADO" | "NAO_REALIZADO";
/** A Pix sent through Efí's `PUT /v3/gn/pix/{idEnvio}` (efi.ts). */
export interface SendRow {
  client_id: string;
  id_envio: string;
  e2eid: string;
  valor: number;
  pagador_chave: string;
  info_pagador: string | null;
  /** JSON of the request's `favorecido`. */
  favorecido: string;
  status: SendStatus;
  /** JSON `{codigo, origem, motivo}` of a NAO_REALIZADO send, or null. */
  erro: string | null;
  solicitacao_ms: number;
  liquidacao_ms: number | null;
}
export type InfracaoStatus = "ABERTA" | "EM_DEFESA" | "ACEITA" | "REJEITADA" | "CANCELADA_EFI";
/** A MED infraction Efí lists (`GET /v2/gn/infracoes`; efi-med.ts). */
export interface InfracaoRow {
  id: string;
  client_id: string;
  e2eid: string;
  valor: number;
  status: InfracaoStatus;
  razao: string | null;
  tipo_situacao: string;
  /** JSON `{analise, justificativa, recebidaEm}` of the defence received, or null. */
  defesa: string | null;
  criado_ms: number;
  atualizado_ms: number;
  /** `dadosAnalise.prazoFinalizacao`. */
  prazo_ms: number;
  finalizacao_ms: number | null;
}
export type CallbackStatus = "pending" | "sent" | "failed" | "dropped";
export interface CallbackRow {
  id: number;
  client_id: string;
  url: string;
  body: string;
  status: CallbackStatus;
  http_status: number | null;
  error: string | null;
  created_ms: number;
  sent_ms: number | null;
}

/** Typed queries over the simulator's database. Every method is synchronous. */
export class SimStore {
  readonly db: Database;
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

  insertDevolucao(row: DevolucaoRow): void {
    this.db
      .query(
        "INSERT INTO devolucoes VALUES ($e2eid, $id, $rtr_id, $valor, $natureza, $descricao, $status, $motivo, $solicitacao_ms, $liquidacao_ms)",
      )
      .run({ ...row });
  }
  devolucao(e2eid: string, id: string): DevolucaoRow | null {
    return this.db
      .query<DevolucaoRow, [string, string]>("SELECT * FROM devolucoes WHERE e2eid = ? AND id = ?")
      .get(e2eid, id);
  }
  devolucoesOf(e2eid: string): DevolucaoRow[] {
    return this.db
      .query<DevolucaoRow, [string]>("SELECT * FROM devolucoes WHERE e2eid = ? ORDER BY solicitacao_ms, id")
      .all(e2eid);
  }
  finishDevolucao(
    e2eid: string,
    id: string,
    status: DevolucaoStatus,
    motivo: string | null,
    liquidacaoMs: number | null,
  ): void {
    this.db
      .query("UPDATE devolucoes SET status = ?, motivo = ?, liquidacao_ms = ? WHERE e2eid = ? AND id = ?")
      .run(status, motivo, liquidacaoMs, e2eid, id);
  }
  /** Devoluções still EM_PROCESSAMENTO (auto-settle after a restart). */
  pendingDevolucoes(): DevolucaoRow[] {
    return this.db.query<DevolucaoRow, []>("SELECT * FROM devolucoes WHERE status = 'EM_PROCESSAMENTO'").all();
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

  insertSend(row: SendRow): void {
    this.db
      .query(
        "INSERT INTO sends VALUES ($client_id, $id_envio, $e2eid, $valor, $pagador_chave, $info_pagador, $favorecido, $status, $erro, $solicitacao_ms, $liquidacao_ms)",
      )
      .run({ ...row });
  }
  send(clientId: string, idEnvio: string): SendRow | null {
    return this.db
      .query<SendRow, [string, string]>("SELECT * FROM sends WHERE client_id = ? AND id_envio = ?")
      .get(clientId, idEnvio);
  }
  sendByE2e(clientId: string, e2eid: string): SendRow | null {
    return this.db
      .query<SendRow, [string, string]>("SELECT * FROM sends WHERE client_id = ? AND e2eid = ?")
      .get(clientId, e2eid);
  }
  /** Every send with this idEnvio, whatever the client (control routes). */
  sendsById(idEnvio: string): SendRow[] {
    return this.db.query<SendRow, [string]>("SELECT * FROM sends WHERE id_envio = ?").all(idEnvio);
  }
  allSends(): SendRow[] {
    return this.db.query<SendRow, []>("SELECT * FROM sends ORDER BY solicitacao_ms, id_envio").all();
  }
  finishSend(
    clientId: string,
    idEnvio: string,
    status: SendStatus,
    erro: string | null,
    liquidacaoMs: number | null,
  ): void {
    this.db
      .query("UPDATE sends SET status = ?, erro = ?, liquidacao_ms = ? WHERE client_id = ? AND id_envio = ?")
      .run(status, erro, liquidacaoMs, clientId, idEnvio);
  }
  /** Sends still EM_PROCESSAMENTO (finished by rule after a restart). */
  pendingSends(): SendRow[] {
    return this.db
      .query<SendRow, []>("SELECT * FROM sends WHERE status = 'EM_PROCESSAMENTO' ORDER BY solicitacao_ms")
      .all();
  }
  /** The client's balance at the PSP, centavos, or null when never set (the simulator's initial balance applies). */
  balance(clientId: string): number | null {
    return (
      this.db.query<{ saldo: number }, [string]>("SELECT saldo FROM balances WHERE client_id = ?").get(clientId)
        ?.saldo ?? null
    );
  }
  setBalance(clientId: string, saldo: number): void {
    this.db
      .query("INSERT INTO balances VALUES (?, ?) ON CONFLICT (client_id) DO UPDATE SET saldo = excluded.saldo")
      .run(clientId, saldo);
  }

  /** Sends of a client requested in [fromMs, toMs], oldest first. */
  sendsBetween(clientId: string, fromMs: number, toMs: number): SendRow[] {
    return this.db
      .query<SendRow, [string, number, number]>(
        "SELECT * FROM sends WHERE client_id = ? AND solicitacao_ms >= ? AND solicitacao_ms <= ? ORDER BY solicitacao_ms, id_envio",
      )
      .all(clientId, fromMs, toMs);
  }
  /** Sets the stored valor and horario of a Pix (control route: an amount or a day that differs). */
  setPixValor(e2eid: string, valor: number, horarioMs: number): void {
    this.db.query("UPDATE pix SET valor = ?, horario_ms = ? WHERE e2eid = ?").run(valor, horarioMs, e2eid);
  }
  /** Sets the stored valor of a send (control route: an amount that differs). */
  setSendValor(clientId: string, idEnvio: string, valor: number): void {
    this.db.query("UPDATE sends SET valor = ? WHERE client_id = ? AND id_envio = ?").run(valor, clientId, idEnvio);
  }

  insertInfracao(row: InfracaoRow): void {
    this.db
      .query(
        "INSERT INTO infracoes VALUES ($id, $client_id, $e2eid, $valor, $status, $razao, $tipo_situacao, $defesa, $criado_ms, $atualizado_ms, $prazo_ms, $finalizacao_ms)",
      )
      .run({ ...row });
  }
  infracao(id: string): InfracaoRow | null {
    return this.db.query<InfracaoRow, [string]>("SELECT * FROM infracoes WHERE id = ?").get(id);
  }
  /** Infractions of a client created in [fromMs, toMs], oldest first. */
  infracoesBetween(clientId: string, fromMs: number, toMs: number): InfracaoRow[] {
    return this.db
      .query<InfracaoRow, [string, number, number]>(
        "SELECT * FROM infracoes WHERE client_id = ? AND criado_ms >= ? AND criado_ms <= ? ORDER BY criado_ms, id",
      )
      .all(clientId, fromMs, toMs);
  }
  allInfracoes(): InfracaoRow[] {
    return this.db.query<InfracaoRow, []>("SELECT * FROM infracoes ORDER BY criado_ms, id").all();
  }
  updateInfracao(
    id: string,
    status: InfracaoStatus,
    defesa: string | null,
    atualizadoMs: number,
    finalizacaoMs: number | null,
  ): void {
    this.db
      .query("UPDATE infracoes SET status = ?, defesa = ?, atualizado_ms = ?, finalizacao_ms = ? WHERE id = ?")
      .run(status, defesa, atualizadoMs, finalizacaoMs, id);
  }

  insertCallback(clientId: string, url: string, body: string, nowMs: number): number {
    const r = this.db
      .query("INSERT INTO callbacks (client_id, url, body, status, created_ms) VALUES (?, ?, ?, 'pending', ?)")
      .run(clientId, url, body, nowMs);
    return Number(r.lastInsertRowid);
  }
  finishCallback(
    id: number,
    status: CallbackStatus,
    httpStatus: number | null,
    error: string | null,
    sentMs: number | null,
  ): void {
    this.db
      .query("UPDATE callbacks SET status = ?, http_status = ?, error = ?, sent_ms = ? WHERE id = ?")
      .run(status, httpStatus, error, sentMs, id);
  }
  callbacks(): CallbackRow[] {
    return this.db.query<CallbackRow, []>("SELECT * FROM callbacks ORDER BY id").all();
  }
  pendingCallbacks(): CallbackRow[] {
    return this.db.query<CallbackRow, []>("SELECT * FROM callbacks WHERE status = 'pending' ORDER BY id").all();
  }

  counts(): { cobs: number; pix: number; devolucoes: number; sends: number; callbacks: number } {
    const one = (t: string) => this.db.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${t}`).get()!.n;
    return {
      cobs: one("cobs"),
      pix: one("pix"),
      devolucoes: one("devolucoes"),
      sends: one("sends"),
      callbacks: one("callbacks"),
    };
  }
}
