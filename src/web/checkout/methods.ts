/** Every checkout section: one import per method file (each registers itself). */
import "./pix";
import "./card";
import "./boleto";
import "./multibanco";
import "./mbway";
import "./crypto";
