/** Registers every sandbox method provider (one file per method in this folder). */
import "./pix";
import "./card";
import "./mbway";
import "./multibanco";
import "./boleto";
import "./crypto";
