/**
 * psp-sim outgoing-money state: devoluções of received Pix, Pix sent through Efí and the client's
 * balance at the PSP. Tables live in the same SQLite file as ChargeStore's.
 */
import { ChargeStore } from "./store-charges";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS devolucoes (
  e2eid TEXT NOT NULL, id TEXT NOT NULL, rtr_id TEXT NOT NULL, valor INTEGER NOT NULL, natureza TEXT NOT NULL,
  descricao TEXT, status TEXT NOT NULL, motivo TEXT, solicitacao_ms INTEGER NOT NULL, liquidacao_ms INTEGER,
  PRIMARY KEY (e2eid, id));
CREATE TABLE IF NOT EXISTS sends (
  client_id TEXT NOT NULL, id_envio TEXT NOT NULL, e2eid TEXT NOT NULL, valor INTEGER NOT NULL, pagador_chave TEXT NOT NULL,
  info_pagador TEXT, favorecido TEXT NOT NULL, status TEXT NOT NULL, erro TEXT, solicitacao_ms INTEGER NOT NULL,
  liquidacao_ms INTEGER, PRIMARY KEY (client_id, id_envio));
CREATE TABLE IF NOT EXISTS balances (client_id TEXT PRIMARY KEY, saldo INTEGER NOT NULL);
`;

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

/** ChargeStore plus typed queries over devoluções, sends and balances. Every method is synchronous. */
export class OutflowStore extends ChargeStore {
  constructor(file: string) {
    super(file);
    this.db.exec(SCHEMA);
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
  /** Sets the stored valor of a send (control route: an amount that differs). */
  setSendValor(clientId: string, idEnvio: string, valor: number): void {
    this.db.query("UPDATE sends SET valor = ? WHERE client_id = ? AND id_envio = ?").run(valor, clientId, idEnvio);
  }
}
