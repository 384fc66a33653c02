import { stemmer as nl } from '@orama/stemmers/dutch';
import { stemmer as fr } from '@orama/stemmers/french';
import { stemmer as en } from '@orama/stemmers/english';
for (const w of ['vaas','vazen','stoel','stoelen','kopje','kopjes','lamp','lampen','glazen','glas','schaal','schalen','beeldje','beeldjes']) console.log('nl',w, nl(w));
for (const w of ['vase','vases','chaise','chaises','verre','verres','céramique','ceramique','bijoux','bijou','théière','theiere']) console.log('fr',w, fr(w));
for (const w of ['vase','vases','chairs','chair','glasses','running']) console.log('en',w, en(w));
