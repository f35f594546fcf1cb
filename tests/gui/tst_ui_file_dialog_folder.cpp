// Where file dialogs start (issue 15): the last folder chosen for the same purpose, else the profiles
// folder, else home — never the process's working directory (the test runs from a folder of its own so
// that the two cannot be confused). Settings in a temporary location. The real QFileDialog the helper
// opens is checked too: it starts there, and what the operator chooses is remembered.
#include "ui/dialogs/file_dialog_folder.hpp"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLineEdit>
#include <QSettings>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include <functional>

using namespace telestation;
using ui::FileDialogFolder;

namespace {

QString canonical(const QString& path)
{
    return QFileInfo(path).canonicalFilePath();
}

void touch(const QString& path)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
}

// Runs `drive` on the file dialog once it is shown (the static QFileDialog functions block in exec()).
void whenDialogShows(const std::function<void(QFileDialog&)>& drive, bool* seen)
{
    QTimer::singleShot(0, qApp, [drive, seen] {
        auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
        if (!dialog)
            return;
        *seen = true;
        drive(*dialog);
    });
}

} // namespace

class TestFileDialogFolder : public QObject {
    Q_OBJECT

    QTemporaryDir m_settings;
    QTemporaryDir m_home;
    QTemporaryDir m_workingDirectory;
    QTemporaryDir m_files;

private slots:
    void initTestCase()
    {
        QVERIFY(m_settings.isValid() && m_home.isValid() && m_workingDirectory.isValid() && m_files.isValid());
        QCoreApplication::setOrganizationName(QStringLiteral("telestation-test"));
        QCoreApplication::setApplicationName(QStringLiteral("file-dialog-folder"));
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settings.path());
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_settings.path());
        qputenv("HOME", m_home.path().toLocal8Bit());
        QVERIFY(QDir::setCurrent(m_workingDirectory.path()));
        // Native dialogs (none offscreen anyway) could not be driven by the test.
        QApplication::setAttribute(Qt::AA_DontUseNativeDialogs);
    }

    void init() { QSettings().clear(); }

    void nothingRememberedIsHomeNeverTheWorkingDirectory()
    {
        const FileDialogFolder where(FileDialogFolder::kEventExports);
        QCOMPARE(canonical(where.folder()), canonical(m_home.path()));
        QVERIFY(canonical(where.folder()) != canonical(QDir::currentPath()));
        // A relative path in the field would mean the working directory: not used.
        QCOMPARE(canonical(where.folder(QStringLiteral("recordings"))), canonical(m_home.path()));
        QCOMPARE(QFileInfo(where.suggestion(QStringLiteral("events.csv"))).fileName(), QStringLiteral("events.csv"));
        QCOMPARE(canonical(QFileInfo(where.suggestion(QStringLiteral("events.csv"))).absolutePath()), canonical(m_home.path()));
    }

    void theLastFolderIsRememberedPerPurpose()
    {
        QDir files(m_files.path());
        QVERIFY(files.mkpath(QStringLiteral("csv")) && files.mkpath(QStringLiteral("profiles")));
        const FileDialogFolder csv(FileDialogFolder::kEventExports);
        csv.remember(files.filePath(QStringLiteral("csv/events.csv"))); // a file saved: its folder
        QCOMPARE(canonical(csv.folder()), canonical(files.filePath(QStringLiteral("csv"))));
        QCOMPARE(canonical(FileDialogFolder(FileDialogFolder::kEventExports).folder()), canonical(files.filePath(QStringLiteral("csv"))));
        // Another purpose is not moved by it.
        QCOMPARE(canonical(FileDialogFolder(FileDialogFolder::kDisplays).folder()), canonical(m_home.path()));

        // Where profiles were last opened is every other purpose's fallback.
        FileDialogFolder(FileDialogFolder::kProfiles).remember(files.filePath(QStringLiteral("profiles")));
        QCOMPARE(canonical(FileDialogFolder(FileDialogFolder::kDisplays).folder()), canonical(files.filePath(QStringLiteral("profiles"))));
        QCOMPARE(canonical(csv.folder()), canonical(files.filePath(QStringLiteral("csv")))); // its own first

        // A remembered folder that has gone: the next in line.
        QVERIFY(QDir(files.filePath(QStringLiteral("csv"))).removeRecursively());
        QCOMPARE(canonical(csv.folder()), canonical(files.filePath(QStringLiteral("profiles"))));
    }

    void whatTheFieldNamesComesFirst()
    {
        QDir files(m_files.path());
        QVERIFY(files.mkpath(QStringLiteral("rec/a")));
        const FileDialogFolder recordings(FileDialogFolder::kRecordings);
        recordings.remember(files.filePath(QStringLiteral("rec")));
        QCOMPARE(canonical(recordings.folder(files.filePath(QStringLiteral("rec/a")))), canonical(files.filePath(QStringLiteral("rec/a"))));
        QCOMPARE(canonical(recordings.folder(files.filePath(QStringLiteral("rec/a/segment-1.tsrec")))),
                 canonical(files.filePath(QStringLiteral("rec/a"))));
        QCOMPARE(canonical(recordings.folder(files.filePath(QStringLiteral("gone/x")))), canonical(files.filePath(QStringLiteral("rec"))));
        // Save As suggests the profile's own file where it is.
        const QString own = files.filePath(QStringLiteral("rec/station.json"));
        QCOMPARE(FileDialogFolder(FileDialogFolder::kProfiles).suggestion(own), own);
    }

    // The real dialog: it opens in the remembered folder, and the file chosen moves the folder.
    void theDialogStartsThereAndRemembersTheChoice()
    {
        QDir files(m_files.path());
        QVERIFY(files.mkpath(QStringLiteral("start")) && files.mkpath(QStringLiteral("chosen")));
        touch(files.filePath(QStringLiteral("chosen/station.json")));
        FileDialogFolder(FileDialogFolder::kProfiles).remember(files.filePath(QStringLiteral("start")));

        bool seen = false;
        QString startedIn;
        whenDialogShows(
            [&](QFileDialog& dialog) {
                startedIn = dialog.directory().absolutePath();
                dialog.selectFile(files.filePath(QStringLiteral("chosen/station.json")));
                static_cast<QDialog&>(dialog).accept(); // QFileDialog::accept() checks the file, as OK does
            },
            &seen);
        const QString path = FileDialogFolder::openFile(nullptr, FileDialogFolder::kProfiles, QStringLiteral("Open"),
                                                        QStringLiteral("Station profiles (*.json)"));
        QVERIFY(seen);
        QCOMPARE(canonical(startedIn), canonical(files.filePath(QStringLiteral("start"))));
        QCOMPARE(canonical(path), canonical(files.filePath(QStringLiteral("chosen/station.json"))));
        QCOMPARE(canonical(FileDialogFolder(FileDialogFolder::kProfiles).folder()), canonical(files.filePath(QStringLiteral("chosen"))));

        // A save dialog: the suggested name in that folder; cancelled, nothing is remembered.
        seen = false;
        QString suggested;
        whenDialogShows(
            [&](QFileDialog& dialog) {
                startedIn = dialog.directory().absolutePath();
                const auto* name = dialog.findChild<QLineEdit*>(QStringLiteral("fileNameEdit"));
                suggested = name ? name->text() : QString();
                dialog.reject();
            },
            &seen);
        QCOMPARE(FileDialogFolder::saveFile(nullptr, FileDialogFolder::kEventExports, QStringLiteral("Export"),
                                            QStringLiteral("events.csv"), QStringLiteral("CSV files (*.csv)")),
                 QString());
        QVERIFY(seen);
        QCOMPARE(canonical(startedIn), canonical(files.filePath(QStringLiteral("chosen")))); // the profiles folder
        QCOMPARE(suggested, QStringLiteral("events.csv"));
        QCOMPARE(QSettings().value(QStringLiteral("fileDialogs/eventExports")).toString(), QString());
    }
};

QTEST_MAIN(TestFileDialogFolder)
#include "tst_ui_file_dialog_folder.moc"
