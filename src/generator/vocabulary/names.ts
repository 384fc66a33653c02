/** First names and surnames per country, for generated designers and for manufacturers named after people. */
import type { CountryCode } from './countries.js';

export interface NamePool {
  male: readonly string[];
  female: readonly string[];
  surnames: readonly string[];
}

const split = (s: string): string[] => s.split(',').map((x) => x.trim());

/** Countries whose designers the generator invents, with relative weights (the museum is Belgian). */
export const DESIGNER_COUNTRIES: readonly (readonly [CountryCode, number])[] = [
  ['BEL', 34],
  ['NLD', 14],
  ['FRA', 14],
  ['ITA', 12],
  ['DEU', 10],
  ['DNK', 5],
  ['SWE', 4],
  ['FIN', 4],
  ['NOR', 1],
  ['AUT', 2],
];

export const NAMES: Partial<Record<CountryCode, NamePool>> = {
  BEL: {
    male: split(
      'Jan, Pieter, Jozef, Karel, Frans, Gustaaf, Emiel, Maurice, Jules, Georges, Lucien, Marcel, Willy, Luc, Dirk, Bart, Koen, Wim, Stefaan, Geert, Hendrik, Achiel, Remi, Octaaf, Louis, Pierre, Jean, Philippe, Michel, Benoît, Olivier, Xavier, Thibaut, Raymond, Arthur',
    ),
    female: split(
      'Maria, Anna, Elisabeth, Godelieve, Rosa, Jeanne, Marguerite, Simonne, Germaine, Lieve, Hilde, Katrien, An, Els, Sofie, Lotte, Ine, Griet, Marthe, Julienne, Mathilde, Béatrice, Claire, Nathalie, Isabelle, Véronique, Chantal, Hélène, Louise, Émilie',
    ),
    surnames: split(
      'Peeters, Janssens, Maes, Jacobs, Mertens, Willems, Claes, Goossens, Wouters, De Smet, Dubois, Lambert, Dupont, Martens, Vermeulen, Van Damme, De Clercq, Vandenberghe, Desmet, Verstraete, Van Hecke, De Backer, Hermans, Coppens, Declercq, Vanhoutte, De Vos, Lemaire, Leclercq, Renard, Hoste, Van de Putte, Baert, Vercruysse, Van Acker, D’Hondt, Verhaeghe, De Wilde, Van Houtte, Seghers, De Meyer, Stevens, Michiels, Cools, Van Severen, Defoort, Verbeke, Pauwels, Dewulf, Gevaert',
    ),
  },
  NLD: {
    male: split(
      'Johannes, Cornelis, Hendrik, Willem, Gerrit, Jacobus, Dirk, Kees, Joop, Henk, Piet, Rutger, Bas, Jeroen, Maarten, Sjoerd, Teun, Wouter, Hidde, Lodewijk, Bart, Jasper, Hein, Floris, Menno',
    ),
    female: split(
      'Johanna, Cornelia, Geertruida, Hendrika, Wilhelmina, Aaltje, Anneke, Marijke, Ria, Ineke, Saskia, Femke, Anouk, Esther, Lieke, Mieke, Trijntje, Hella, Brecht, Jantine, Marlies, Sanne, Ilse, Roos, Fenna',
    ),
    surnames: split(
      'de Jong, Jansen, de Vries, van den Berg, van Dijk, Bakker, Visser, Smit, Meijer, de Boer, Mulder, de Groot, Bos, Vos, Peters, Hendriks, van Leeuwen, Dekker, Brouwer, de Wit, Dijkstra, Smits, de Graaf, van der Meer, van der Linden, Kok, Jacobs, de Haan, Vermeulen, van den Heuvel, van der Veen, van den Broek, de Bruijn, Schouten, van Beek, Willems, van Vliet, Hoekstra, Maas, Verhoeven, Koster, van Dam, Prins, Blom, Huisman, Kuipers, van Wijk, Post, Kuiper, Veenstra',
    ),
  },
  FRA: {
    male: split(
      'Jean, Pierre, Louis, Henri, Émile, Marcel, André, René, Paul, Jacques, Michel, Claude, Philippe, Alain, Bernard, Gérard, François, Étienne, Julien, Mathieu, Antoine, Gaston, Maurice, Raymond, Lucien',
    ),
    female: split(
      'Marie, Jeanne, Marguerite, Germaine, Madeleine, Suzanne, Louise, Hélène, Simone, Odette, Colette, Monique, Françoise, Sylvie, Catherine, Isabelle, Nathalie, Camille, Élise, Juliette, Léa, Manon, Aurélie, Delphine, Pauline',
    ),
    surnames: split(
      'Martin, Bernard, Dubois, Thomas, Robert, Richard, Petit, Durand, Leroy, Moreau, Simon, Laurent, Lefebvre, Michel, Garcia, David, Bertrand, Roux, Vincent, Fournier, Morel, Girard, André, Lefèvre, Mercier, Dupont, Lambert, Bonnet, François, Martinez, Legrand, Garnier, Faure, Rousseau, Blanc, Guérin, Muller, Henry, Roussel, Nicolas, Perrin, Morin, Mathieu, Clément, Gauthier, Dumont, Lopez, Fontaine, Chevalier, Robin',
    ),
  },
  ITA: {
    male: split(
      'Giovanni, Giuseppe, Antonio, Mario, Luigi, Francesco, Angelo, Vincenzo, Pietro, Salvatore, Carlo, Franco, Domenico, Bruno, Paolo, Michele, Giorgio, Aldo, Sergio, Luciano, Alessandro, Enzo, Vico, Achille, Pier Giacomo',
    ),
    female: split(
      'Maria, Anna, Giuseppina, Rosa, Angela, Giovanna, Teresa, Lucia, Carmela, Caterina, Francesca, Antonietta, Carla, Elena, Paola, Giulia, Chiara, Federica, Silvia, Gae, Cini, Lina, Luisa, Marta, Nanda',
    ),
    surnames: split(
      'Rossi, Russo, Ferrari, Esposito, Bianchi, Romano, Colombo, Ricci, Marino, Greco, Bruno, Gallo, Conti, De Luca, Mancini, Costa, Giordano, Rizzo, Lombardi, Moretti, Barbieri, Fontana, Santoro, Mariani, Rinaldi, Caruso, Ferrara, Galli, Martini, Leone, Longo, Gentile, Martinelli, Vitale, Lombardo, Serra, Coppola, De Santis, D’Angelo, Marchetti, Parisi, Villa, Conte, Ferraro, Ferri, Fabbri, Bianco, Marini, Grasso, Valentini',
    ),
  },
  DEU: {
    male: split(
      'Hans, Karl, Heinrich, Friedrich, Wilhelm, Otto, Ernst, Walter, Hermann, Paul, Kurt, Werner, Günter, Helmut, Dieter, Klaus, Jürgen, Wolfgang, Rainer, Peter, Stefan, Michael, Thomas, Matthias, Konstantin',
    ),
    female: split(
      'Anna, Maria, Elisabeth, Margarete, Gertrud, Hildegard, Ilse, Ursula, Helga, Ingrid, Gisela, Renate, Monika, Karin, Sabine, Petra, Claudia, Susanne, Andrea, Katharina, Friedl, Gunta, Lilly, Trude, Marlene',
    ),
    surnames: split(
      'Müller, Schmidt, Schneider, Fischer, Weber, Meyer, Wagner, Becker, Schulz, Hoffmann, Schäfer, Koch, Bauer, Richter, Klein, Wolf, Schröder, Neumann, Schwarz, Zimmermann, Braun, Krüger, Hofmann, Hartmann, Lange, Schmitt, Werner, Schmitz, Krause, Meier, Lehmann, Schmid, Schulze, Maier, Köhler, Herrmann, König, Walter, Mayer, Huber, Kaiser, Fuchs, Peters, Lang, Scholz, Möller, Weiß, Jung, Hahn, Vogel',
    ),
  },
  DNK: {
    male: split('Jens, Niels, Søren, Poul, Hans, Peter, Anders, Morten, Kaare, Børge, Finn, Hans J., Erik, Henning, Jørgen, Ole, Arne, Mogens, Kristian, Rasmus'),
    female: split('Anne, Kirsten, Hanne, Mette, Karen, Lone, Birgitte, Inge, Grethe, Nanna, Ida, Signe, Astrid, Bodil, Lis, Gertrud, Marianne, Tove, Vibeke, Helle'),
    surnames: split(
      'Nielsen, Jensen, Hansen, Pedersen, Andersen, Christensen, Larsen, Sørensen, Rasmussen, Jørgensen, Petersen, Madsen, Kristensen, Olsen, Thomsen, Christiansen, Poulsen, Johansen, Møller, Mortensen, Klint, Wegner, Mogensen, Kjærholm, Juhl',
    ),
  },
  SWE: {
    male: split('Lars, Anders, Johan, Karl, Erik, Per, Nils, Bengt, Gunnar, Sven, Olle, Sigurd, Bruno, Gustaf, Stig, Åke, Ingvar, Björn, Magnus, Fredrik'),
    female: split('Anna, Eva, Karin, Kerstin, Ingrid, Birgitta, Margareta, Greta, Astrid, Signe, Elsa, Maja, Ulla, Britt, Lena, Gunnel, Stina, Ebba, Linnea, Vicke'),
    surnames: split(
      'Andersson, Johansson, Karlsson, Nilsson, Eriksson, Larsson, Olsson, Persson, Svensson, Gustafsson, Pettersson, Jonsson, Jansson, Hansson, Bengtsson, Lindberg, Lindqvist, Lindström, Mathsson, Ohlsson, Lundgren, Berg, Sandberg, Forsberg, Sjöberg',
    ),
  },
  FIN: {
    male: split('Juhani, Johannes, Mikael, Matti, Pekka, Antti, Kari, Timo, Heikki, Eero, Ilmari, Yrjö, Kaj, Oiva, Tapio, Eino, Harri, Ilkka, Jukka, Lauri'),
    female: split('Maria, Helena, Johanna, Anneli, Kaarina, Marjatta, Anna, Liisa, Aino, Maija, Vuokko, Armi, Eila, Kirsti, Ritva, Sirkka, Tuula, Hilkka, Ulla, Laila'),
    surnames: split(
      'Korhonen, Virtanen, Mäkinen, Nieminen, Mäkelä, Hämäläinen, Laine, Heikkinen, Koskinen, Järvinen, Lehtonen, Lehtinen, Saarinen, Salminen, Heinonen, Niemi, Heikkilä, Kinnunen, Salonen, Turunen, Tapiovaara, Franck, Nurmesniemi, Sarpaneva, Kukkapuro',
    ),
  },
  NOR: {
    male: split('Ole, Lars, Knut, Arne, Hans, Olav, Einar, Bjørn, Sverre, Torolf'),
    female: split('Ingrid, Kari, Anne, Solveig, Astrid, Grete, Liv, Randi, Tone, Sigrid'),
    surnames: split('Hansen, Johansen, Olsen, Larsen, Andersen, Pedersen, Nilsen, Kristiansen, Jensen, Karlsen, Prytz, Relling, Rykken, Berg, Haugen'),
  },
  AUT: {
    male: split('Josef, Franz, Johann, Karl, Leopold, Anton, Rudolf, Otto, Adolf, Koloman'),
    female: split('Maria, Anna, Theresia, Josefine, Hermine, Vally, Mathilde, Emilie, Leopoldine, Susi'),
    surnames: split('Gruber, Huber, Bauer, Wagner, Pichler, Steiner, Moser, Mayer, Hofer, Leitner, Berger, Fuchs, Eder, Fischer, Schmid'),
  },
};
