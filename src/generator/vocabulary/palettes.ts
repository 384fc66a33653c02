/** Colours of materials, for the demo images the IIIF server draws (object colours, backdrops and patterns). */
import type { MaterialGroup } from './thesaurus.js';

/** Colours per material concept key; groups fall back to GROUP_COLORS. */
export const MATERIAL_COLORS: Record<string, readonly string[]> = {
  porselein: ['#f4f1ea', '#2b4c9b', '#d4af37', '#1f3a73'],
  'biscuit (porselein)': ['#efe9df', '#e4dccf'],
  aardewerk: ['#c9733d', '#2f6fa8', '#e8d9b5', '#3f7f4f'],
  faience: ['#f1ead8', '#2556a0', '#d9a21b', '#3b7d4a'],
  majolica: ['#2f8f6b', '#e0a526', '#b8322a', '#f0e2c0'],
  steengoed: ['#8a6a4f', '#5c4a3a', '#a9a08d', '#6b7f5e'],
  glas: ['#6fa8c9', '#3c8c6e', '#b5d3e0', '#8c5aa8'],
  kristal: ['#dfe8ec', '#c7d6dd', '#a9c4d1'],
  opaalglas: ['#e8eef0', '#f2c6a0', '#9cc0d8', '#f5e6c8'],
  'pâte de verre': ['#c55a8a', '#7a5ca8', '#e9a13b', '#5aa876'],
  persglas: ['#c9dde6', '#e6d39a', '#a7c7a0'],
  zilver: ['#c0c0c8', '#9ea3a8', '#e1e3e6'],
  goud: ['#d4af37', '#b8902b'],
  tin: ['#a8a9ad', '#8e9094'],
  koper: ['#b87333', '#9a5b2a'],
  messing: ['#c9a94d', '#a88a36'],
  brons: ['#8c6239', '#6e4b2a', '#4f6b55'],
  staal: ['#8d949a', '#5f666d'],
  'roestvrij staal': ['#b4b9be', '#9aa0a6'],
  chroomstaal: ['#c5cbd1', '#8f979e'],
  aluminium: ['#b9bec4', '#d5d9dd'],
  email: ['#1f6fb2', '#c23b22', '#2e8b57'],
  eik: ['#a0793d', '#c19a5b', '#7d5a2c'],
  beuk: ['#d7b889', '#c49e6c'],
  notelaar: ['#5d432c', '#7a5838'],
  mahonie: ['#6b2d1f', '#8a3b26'],
  teak: ['#a0663b', '#b97a48'],
  palissander: ['#4a2c20', '#65392a'],
  multiplex: ['#d9b98a', '#c9a46f'],
  rotan: ['#d8b878', '#c29a55'],
  polypropyleen: ['#e63b2e', '#f2c12e', '#2a6fdb', '#1a1a1a', '#3aa655'],
  polyetherimide: ['#d98c1f', '#c4761a'],
  ABS: ['#e8412c', '#f6d02f', '#1d5fbf', '#202020'],
  melamine: ['#f06292', '#4db6ac', '#ffb300'],
  plexiglas: ['#9fd8e0', '#f48fb1', '#ffe082'],
  polyester: ['#f28c28', '#e53935', '#43a047'],
  wol: ['#9b2d30', '#2f4f7f', '#c9a227', '#e0cfa8', '#4e6e3a'],
  zijde: ['#b03060', '#e8c39e', '#6a4c93'],
  katoen: ['#f0ead6', '#3a5f8f', '#c0392b'],
  linnen: ['#d8cfb8', '#b7a98a'],
  jute: ['#b59b6b', '#8f774a'],
  papier: ['#d7263d', '#1b998b', '#f46036', '#2e294e', '#c5d86d', '#f2e3bc'],
  karton: ['#b08d57', '#d7263d', '#2e294e'],
  leder: ['#6f4e37', '#3b2a20'],
  parelmoer: ['#efe6f0', '#d8e4ea'],
  marmer: ['#e6e2dc', '#9e9a94'],
};

export const GROUP_COLORS: Record<MaterialGroup, readonly string[]> = {
  ceramic: ['#f4f1ea', '#2b4c9b', '#c9733d'],
  glass: ['#6fa8c9', '#b5d3e0'],
  metal: ['#c0c0c8', '#8d949a'],
  wood: ['#a0793d', '#5d432c'],
  plastic: ['#e63b2e', '#2a6fdb'],
  textile: ['#9b2d30', '#2f4f7f'],
  paper: ['#d7263d', '#2e294e'],
  stone: ['#e6e2dc', '#9e9a94'],
  leather: ['#6f4e37'],
};

/** Light, plain studio backgrounds. */
export const BACKGROUNDS: readonly string[] = ['#f4f2ee', '#eeeeea', '#f7f4ef', '#e9ecef', '#f2efe9', '#fafafa', '#ece8e1', '#f0f3f5'];

/** Greys and off-whites (max − min of R, G and B at most 12), for near-grey objects. */
export const NEAR_GREYS: readonly string[] = ['#f1efea', '#e2e0db', '#cfcdc8', '#b9b8b4', '#a2a19d', '#8a8986', '#706f6c', '#575654', '#3f3e3d', '#e4e6e8', '#c3c6c9', '#9fa2a5'];

/** Decoration colours a patterned object adds to its material's colours to reach five to eight. */
export const DECOR_COLORS: readonly string[] = ['#c23b22', '#1f6fb2', '#e0a526', '#2e8b57', '#6a4c93', '#f06292', '#202020', '#f4f1ea', '#4db6ac', '#f28c28'];

/** The darker ends of stepped-gradient backdrops (they start at the light background). */
export const GRADIENT_ENDS: readonly string[] = ['#c9c4bb', '#b8bec4', '#d2c8b8', '#a9adb1', '#cbbfae'];

/** Floors of wall-and-floor backdrops: oak, concrete, sand, walnut, stone, slate. */
export const FLOORS: readonly string[] = ['#a88b68', '#8c8c8c', '#c9b79c', '#6b5a4a', '#b5ada2', '#7d6f62'];
