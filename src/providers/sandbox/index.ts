/** Registers every sandbox method provider (one file per method in this folder). */
import "./pix";
