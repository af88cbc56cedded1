// Imported by every lazily loaded part (admin panel, wall, face search) for one reason: so the
// bundler finds everything the guest pages share with those parts reachable from all of them
// and writes it into ONE file. Otherwise it writes a file per combination of importers, each
// compressed on its own: five small files cost guests about 1 KB more gzip than one.
import './routes';
