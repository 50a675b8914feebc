/**
 * psp-sim state in its own SQLite file (bun:sqlite, WAL), so a restart on the same file keeps
 * clients, tokens, cobs, Pix, devoluções, Efí sends, balances and infractions, webhooks and callback attempts.
 * Self-contained schema (CREATE TABLE IF NOT EXISTS): the simulator is not part of Cofre's database or migrations.
 * Amounts in centavos, instants in epoch milliseconds; documents (cob body, payer) as JSON text.
 */
import { OutflowStore } from "./store-outflows";

export type { ClientRow, CobRow, CobStatus, LocRow, PixRow, TokenRow, WebhookRow } from "./store-charges";
export type { DevolucaoRow, DevolucaoStatus, SendRow, SendStatus } from "./store-outflows";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS infracoes (
  id TEXT PRIMARY KEY, client_id TEXT NOT NULL, e2eid TEXT NOT NULL, valor INTEGER NOT NULL, status TEXT NOT NULL,
  razao TEXT, tipo_situacao TEXT NOT NULL, defesa TEXT, criado_ms INTEGER NOT NULL, atualizado_ms INTEGER NOT NULL,
  prazo_ms INTEGER NOT NULL, finalizacao_ms INTEGER);
CREATE INDEX IF NOT EXISTS infracoes_client_criado ON infracoes (client_id, criado_ms);
CREATE TABLE IF NOT EXISTS callbacks (
  id INTEGER PRIMARY KEY AUTOINCREMENT, client_id TEXT NOT NULL, url TEXT NOT NULL, body TEXT NOT NULL,
  status TEXT NOT NULL, http_status INTEGER, error TEXT, created_ms INTEGER NOT NULL, sent_ms INTEGER);
`;

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

/**
 * Typed queries over the simulator's database. Every method is synchronous. Charges (store-charges.ts)
 * and outflows (store-outflows.ts) are inherited; infractions and callback attempts are kept here.
 */
export class SimStore extends OutflowStore {
  constructor(file: string) {
    super(file);
    this.db.exec(SCHEMA);
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
